import { existsSync } from 'node:fs';
import path from 'node:path';
import { LOCALE_CATALOG, type LocaleDefinition } from './locale-catalog';
import { runProcess } from './run-process';

// What the installed engines can really serve, detected once per process. The locale list and
// create-time validation read this, so an unservable pair is refused up front, not mid-dub.

export const POCKETSPHINX_MODEL_ROOT = '/usr/share/pocketsphinx/model';

export interface ServableLocale {
  locale: string;
  displayName: string;
  voice: string;
  canBeSource: boolean;
  canBeTarget: boolean;
  /** apertium modes from English, e.g. ['eng-spa', 'es-pt'] when pivoting through Spanish. */
  translationModes: string[] | null;
  /** Intermediate language when the translation pivots, e.g. 'es'. */
  pivot: string | null;
}

export interface EngineCapabilities {
  locales: ServableLocale[];
  missing: string[];
}

async function listLines(command: string, args: string[]): Promise<string[] | null> {
  try {
    const { stdout } = await runProcess(command, args, { timeoutMs: 15_000 });
    return stdout.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean);
  } catch {
    return null;
  }
}

async function commandExists(command: string): Promise<boolean> {
  const found = await listLines('sh', ['-c', 'command -v "$1"', 'sh', command]);
  return found !== null && found.length > 0;
}

// apertium names languages with ISO 639-3 or 639-1 codes; the API reports 639-1.
const ISO_639_1: Record<string, string> = { eng: 'en', spa: 'es', cat: 'ca', por: 'pt', ita: 'it', fra: 'fr', glg: 'gl' };

/** The language a two-step route passes through: ['eng-spa', 'es-pt'] → 'es'. */
function pivotOf(modes: readonly string[]): string | null {
  if (modes.length < 2) return null;
  const middle = (modes[0]!.split('-')[1] ?? '').split('_')[0]!;
  return ISO_639_1[middle] ?? middle;
}

export async function detectCapabilities(): Promise<EngineCapabilities> {
  const [apertiumModes, voiceLines, hasPocketsphinx] = await Promise.all([
    listLines('apertium', ['-l']),
    listLines('espeak-ng', ['--voices']),
    commandExists('pocketsphinx_continuous'),
  ]);
  const missing: string[] = [];
  if (apertiumModes === null) missing.push('apertium');
  if (voiceLines === null) missing.push('espeak-ng');
  if (!hasPocketsphinx) missing.push('pocketsphinx');

  const modes = new Set(apertiumModes ?? []);
  // `espeak-ng --voices` columns: Pty Language Age/Gender VoiceName File ...
  const voices = new Set((voiceLines ?? []).slice(1).map((line) => line.split(/\s+/)[1] ?? ''));

  const locales: ServableLocale[] = [];
  for (const def of LOCALE_CATALOG) {
    if (!voices.has(def.voice)) continue;
    const canBeSource = hasPocketsphinx && def.asrModel !== undefined && existsSync(path.join(POCKETSPHINX_MODEL_ROOT, def.asrModel));
    const route = (def.fromEnglish ?? []).find((candidate) => candidate.every((mode) => modes.has(mode)));
    const canBeTarget = route !== undefined;
    if (!canBeSource && !canBeTarget) continue;
    locales.push(toServable(def, canBeSource, route));
  }
  return { locales, missing };
}

function toServable(def: LocaleDefinition, canBeSource: boolean, route: readonly string[] | undefined): ServableLocale {
  return {
    locale: def.locale,
    displayName: def.displayName,
    voice: def.voice,
    canBeSource,
    canBeTarget: route !== undefined,
    translationModes: route ? [...route] : null,
    pivot: route ? pivotOf(route) : null,
  };
}
