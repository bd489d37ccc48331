import { existsSync } from 'node:fs';
import path from 'node:path';
import type { EngineCapabilities } from '../shared/engine-capabilities';
import { LOCALE_CATALOG } from './locale-catalog';
import { offeredVoices } from './offered-voices';
import { FESTIVAL_VOICES } from './tts/voice-catalog';
import { runProcess } from './run-process';
import { NO_EXTERNAL_OFFER, servableLocales, type ExternalOffer, type ServableLocale } from './servable-locales';

export type { ServableLocale } from './servable-locales';

// What the installed engines can really serve, detected once when a worker starts. Each worker
// publishes this (src/worker/capability-publisher.ts); the API's locale list and create-time
// checks read the union of live workers' records, so an unservable pair is refused up front,
// not mid-dub, and the API itself never runs an engine.

export const POCKETSPHINX_MODEL_ROOT = '/usr/share/pocketsphinx/model';

// What a worker publishes, a pure type the API and the database read too.
export type { EngineCapabilities } from '../shared/engine-capabilities';

/** Narrows what a worker advertises: real engines, just fewer of them offered. */
export interface CapabilityLimits {
  /** Only these locales (null: all that the engines serve). */
  locales?: readonly string[] | null;
  /** apertium modes not to use, e.g. ['eng-cat'] to leave English → Catalan to another pool. */
  excludedTranslationModes?: readonly string[];
}

/** The Debian packages whose versions a worker reports. */
const ENGINE_PACKAGES = ['ffmpeg', 'pocketsphinx', 'apertium', 'espeak-ng', 'festival', ...FESTIVAL_VOICES.map((voice) => voice.debianPackage)];

async function listLines(command: string, args: string[]): Promise<string[] | null> {
  try {
    const { stdout } = await runProcess(command, args, { timeoutMs: 15_000 });
    return stdout
      .toString('utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  } catch {
    return null;
  }
}

async function commandExists(command: string): Promise<boolean> {
  const found = await listLines('sh', ['-c', 'command -v "$1"', 'sh', command]);
  return found !== null && found.length > 0;
}

async function engineVersions(): Promise<Record<string, string>> {
  // dpkg-query fails when any one package is absent; the others' lines are still wanted.
  const script = 'format="$1"; shift; dpkg-query -W -f "$format" "$@" 2>/dev/null || true';
  const lines = await listLines('sh', ['-c', script, 'sh', '${Package} ${Version}\\n', ...ENGINE_PACKAGES]);
  return Object.fromEntries((lines ?? []).map((line) => line.split(' ')).filter((parts) => parts.length === 2 && parts[1] !== ''));
}

/** Festival's installed voices; none when Festival is not installed. */
async function festivalVoices(): Promise<string[]> {
  try {
    const { stdout } = await runProcess('festival', ['--pipe'], { input: '(print (voice.list))\n', timeoutMs: 30_000 });
    const list = /\(([^()]*)\)/.exec(stdout.toString('utf8'));
    return list ? list[1]!.split(/\s+/).filter(Boolean) : [];
  } catch {
    return [];
  }
}

/**
 * What this worker serves: the installed bundled engines, and the external ones its settings
 * name (`external`, found by src/engines/external/discover-external-engines.ts), which win the
 * steps they serve.
 */
export async function detectCapabilities(limits: CapabilityLimits = {}, external: ExternalOffer = NO_EXTERNAL_OFFER): Promise<EngineCapabilities> {
  const [apertiumModes, voiceLines, variantLines, festival, hasPocketsphinx, hasFfmpeg, versions] = await Promise.all([
    listLines('apertium', ['-l']),
    listLines('espeak-ng', ['--voices']),
    listLines('espeak-ng', ['--voices=variant']),
    festivalVoices(),
    commandExists('pocketsphinx_continuous'),
    commandExists('ffmpeg'),
    engineVersions(),
  ]);
  const missing: string[] = [];
  if (apertiumModes === null) missing.push('apertium');
  if (voiceLines === null) missing.push('espeak-ng');
  if (!hasPocketsphinx) missing.push('pocketsphinx');
  // Every media step needs ffmpeg: without it this worker serves nothing.
  if (!hasFfmpeg) return { locales: [], missing: [...missing, 'ffmpeg'], versions };

  const excluded = new Set(limits.excludedTranslationModes ?? []);
  const modes = new Set((apertiumModes ?? []).filter((mode) => !excluded.has(mode)));
  const wanted = limits.locales ? new Set(limits.locales) : null;
  // `espeak-ng --voices` columns: Pty Language Age/Gender VoiceName File ...
  const voices = new Set((voiceLines ?? []).slice(1).map((line) => line.split(/\s+/)[1] ?? ''));

  // Variants are listed by file: `!v/f3`.
  const variants = new Set((variantLines ?? []).slice(1).map((line) => /!v\/(\S+)/.exec(line)?.[1] ?? ''));
  const installedVoices = { espeakVoices: voices, espeakVariants: variants, festivalVoices: new Set(festival), versions, externalEngine: external.ttsEngine };

  const locales: ServableLocale[] = servableLocales(
    LOCALE_CATALOG,
    {
      apertiumModes: modes,
      espeakVoices: voices,
      hasAsrModel: (model) => hasPocketsphinx && existsSync(path.join(POCKETSPHINX_MODEL_ROOT, model)),
    },
    external,
    wanted,
  ).map((entry) => ({ ...entry, voices: offeredVoices(entry.locale, installedVoices, external.ttsVoices[entry.locale]) }));
  return { locales, missing, versions };
}
