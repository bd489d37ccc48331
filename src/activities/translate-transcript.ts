import { ApplicationFailure } from '@temporalio/activity';
import type { Engines } from '../engines';
import type { EngineCapabilities } from '../engines/capabilities';
import type { TranslatedSegment } from '../db/projects';
import type { TimedText } from '../db/transcripts';
import { classifyingEngineErrors } from './classify-engine-error';

// Translating a transcript, its title and its description into one language: shared by the
// language workflow's translate step and the re-dub from a verified transcript.

export interface Translation {
  segments: TranslatedSegment[];
  title: string;
  description: string;
}

export function translationModes(capabilities: EngineCapabilities, locale: string): string[] {
  const entry = capabilities.locales.find((l) => l.locale === locale);
  if (!entry?.translationModes) throw ApplicationFailure.nonRetryable(`no installed translation route to ${locale}`, 'engine_failed');
  return entry.translationModes;
}

export async function translateTranscript(
  deps: { engines: Engines; capabilities: EngineCapabilities },
  input: { locale: string; transcript: TimedText[]; title: string; description: string; onTick: () => void },
): Promise<Translation> {
  const { transcript, title, description } = input;
  // One batch: the segments, then the title and description, through the same route.
  const texts = [...transcript.map((s) => s.text), title, description];
  const translated = await classifyingEngineErrors(() => deps.engines.translator.translate(texts, translationModes(deps.capabilities, input.locale), { onTick: input.onTick }));
  return {
    segments: transcript.map((s, i) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: translated[i] ?? '' })),
    title: translated[transcript.length] || title,
    description: description ? translated[transcript.length + 1] ?? description : '',
  };
}
