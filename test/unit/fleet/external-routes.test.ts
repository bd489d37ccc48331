import { createHash } from 'node:crypto';
import type { ServableLocale } from '../../../src/engines/capabilities';
import type { WorkerRecord } from '../../../src/db/worker-capabilities';
import { unionOfFleet } from '../../../src/fleet/fleet-capabilities';
import { derivedMediaPool } from '../../../src/fleet/media-pool';
import { chooseMediaQueue } from '../../../src/fleet/media-routing';

// Routes from source languages other than English (external translators, docs/engines.md) in
// the fleet's union and in routing.

const spanish = (from?: Record<string, string[]>): ServableLocale => ({
  locale: 'es_es',
  displayName: 'Spanish (Spain)',
  voice: 'es',
  canBeSource: false,
  canBeTarget: true,
  translationModes: ['eng-spa'],
  pivot: null,
  ...(from ? { translationModesFrom: from } : {}),
});
const worker = (id: string, locales: ServableLocale[]): WorkerRecord => ({
  workerId: id,
  taskQueue: 'dubbing',
  mediaTaskQueue: `dubbing.media.${id}`,
  capabilities: { locales, missing: [] },
  heartbeatAt: new Date(1_000_000),
  expiresAt: new Date(1_030_000),
  live: true,
});

it('unites the source languages each worker translates a target from', () => {
  const union = unionOfFleet([worker('a', [spanish({ de: ['libretranslate:de-es'] })]), worker('b', [spanish({ fr: ['libretranslate:fr-es'] })]), worker('c', [spanish()])], 30_000);
  expect(union.locales).toHaveLength(1);
  expect(union.locales[0]).toMatchObject({ canBeTarget: true, translationModes: ['eng-spa'], translationModesFrom: { de: ['libretranslate:de-es'], fr: ['libretranslate:fr-es'] } });
});

it("routes a target to a worker that translates from the project's source language", () => {
  const rows = [worker('bundled', [spanish()]), worker('bundled-2', [spanish()]), worker('german', [spanish({ de: ['libretranslate:de-es'] })])];
  expect(chooseMediaQueue(rows, { locale: 'es_es', role: 'target', sourceLocale: 'de_de' })).toBe('dubbing.media.german');
  // From English, the queue most workers poll, as before.
  expect(chooseMediaQueue(rows, { locale: 'es_es', role: 'target', sourceLocale: 'en_us' })).toBe('dubbing.media.bundled');
  expect(chooseMediaQueue(rows, { locale: 'es_es', role: 'target', sourceLocale: 'fr_fr' })).toBeNull();
});

it("names a bundled-only worker's pool as before external routes existed", () => {
  const capabilities = { locales: [spanish()], missing: [] };
  const served = capabilities.locales.map((l) => [l.locale, l.voice, l.canBeSource, l.canBeTarget, l.translationModes ?? []]);
  expect(derivedMediaPool(capabilities)).toBe(`engines-${createHash('sha256').update(JSON.stringify(served)).digest('hex').slice(0, 10)}`);
  expect(derivedMediaPool({ locales: [spanish({ de: ['libretranslate:de-es'] })], missing: [] })).not.toBe(derivedMediaPool(capabilities));
});
