import type { ServableLocale } from '../../../src/engines/capabilities';
import type { WorkerRecord } from '../../../src/db/worker-capabilities';
import { capabilityAgeSeconds, unionOfFleet } from '../../../src/fleet/fleet-capabilities';
import { chooseMediaQueue } from '../../../src/fleet/media-routing';
import { derivedMediaPool } from '../../../src/fleet/media-pool';

const locale = (code: string, roles: { source?: boolean; target?: boolean; pivot?: string | null } = {}): ServableLocale => ({
  locale: code,
  displayName: code,
  voice: code,
  canBeSource: roles.source ?? false,
  canBeTarget: roles.target ?? true,
  translationModes: roles.target === false ? null : roles.pivot ? ['eng-spa', `es-${code}`] : [`eng-${code}`],
  pivot: roles.target === false ? null : (roles.pivot ?? null),
});

const worker = (id: string, locales: ServableLocale[], options: { live?: boolean; beatAt?: number; queue?: string | null } = {}): WorkerRecord => ({
  workerId: id,
  taskQueue: 'dubbing',
  mediaTaskQueue: options.queue === undefined ? `dubbing.media.${id}` : options.queue,
  capabilities: { locales, missing: [] },
  heartbeatAt: new Date(options.beatAt ?? 1_000_000),
  expiresAt: new Date((options.beatAt ?? 1_000_000) + 30_000),
  live: options.live ?? true,
});

const english = locale('en_us', { source: true, target: false });

describe('unionOfFleet', () => {
  it('is the union of the live media workers, in catalog order, preferring a direct route', () => {
    const union = unionOfFleet(
      [
        worker('a', [english, locale('es_es'), locale('pt_pt', { pivot: 'es' })]),
        worker('b', [locale('ca_es'), locale('pt_pt')]),
        worker('gone', [locale('it_it')], { live: false }),
        worker('workflows-only', [locale('fr_fr')], { queue: null }),
      ],
      30_000,
    );
    expect(union.source).toBe('live_workers');
    expect(union.liveWorkers).toBe(2);
    expect(union.locales.map((l) => l.locale)).toEqual(['en_us', 'es_es', 'ca_es', 'pt_pt']);
    expect(union.locales.find((l) => l.locale === 'pt_pt')).toMatchObject({ canBeTarget: true, pivot: null });
  });

  it('falls back to the workers last alive together, with their age on the database clock', () => {
    const union = unionOfFleet(
      [
        worker('long-gone', [locale('it_it')], { live: false, beatAt: 0 }),
        worker('a', [english, locale('es_es')], { live: false, beatAt: 1_000_000 }),
        worker('b', [locale('ca_es')], { live: false, beatAt: 990_000 }),
      ],
      30_000,
      5_000,
    );
    expect(union).toMatchObject({ source: 'last_known', liveWorkers: 0, asOf: new Date(1_000_000) });
    expect(union.locales.map((l) => l.locale)).toEqual(['en_us', 'es_es', 'ca_es']);
    expect(capabilityAgeSeconds(union, 1_000_000 + 7_000 - 5_000)).toBe(7);
  });

  it('knows nothing without a media worker', () => {
    expect(unionOfFleet([worker('w', [], { queue: null })], 30_000)).toMatchObject({ source: 'none', locales: [], asOf: null });
    expect(capabilityAgeSeconds(unionOfFleet([], 30_000))).toBeNull();
  });
});

describe('chooseMediaQueue', () => {
  const rows = [
    worker('a1', [english, locale('es_es')], { queue: 'q.a' }),
    worker('a2', [english, locale('es_es')], { queue: 'q.a' }),
    worker('b1', [english, locale('ca_es')], { queue: 'q.b' }),
    worker('dead', [locale('it_it')], { queue: 'q.c', live: false }),
  ];
  it('picks the live queue with the most workers serving the need', () => {
    expect(chooseMediaQueue(rows, { locale: 'en_us', role: 'source' })).toBe('q.a');
    expect(chooseMediaQueue(rows, { locale: 'ca_es', role: 'target' })).toBe('q.b');
  });
  it('serves a locale only in the role the engines allow, and never through a dead worker', () => {
    expect(chooseMediaQueue(rows, { locale: 'en_us', role: 'target' })).toBeNull();
    expect(chooseMediaQueue(rows, { locale: 'it_it', role: 'target' })).toBeNull();
  });
});

describe('derivedMediaPool', () => {
  it('names a pool after its engine set, whatever the order the locales are listed in', () => {
    const one = derivedMediaPool({ locales: [english, locale('es_es')], missing: [] });
    expect(one).toMatch(/^engines-[0-9a-f]{10}$/);
    expect(derivedMediaPool({ locales: [locale('es_es'), english], missing: ['x'], versions: { ffmpeg: '1' } })).toBe(one);
    expect(derivedMediaPool({ locales: [english, locale('es_es', { pivot: 'es' })], missing: [] })).not.toBe(one);
  });
});
