import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EngineCapabilities } from '../engines/capabilities';
import type { OfferedVoice } from '../engines/offered-voices';
import type { SpeechSynthesizer } from '../engines/tts/speech-synthesizer';
import { sampleSentence } from '../engines/tts/sample-sentences';
import type { Logger } from '../logger';
import type { BlobStore } from '../storage/blob-store';

// Each offered voice's sample (GET /v1/dubbing/voices/{id}/sample plays it): rendered by a media
// worker once it has started, into the blob store under the key its capabilities name
// (offered-voices.ts: voice, locale, engine version, sentence). A key already stored (another
// worker, an earlier start) is not rendered again, so a fleet renders each sample once per engine
// version; the API only redirects to the stored file and never runs an engine (docs/voices.md#samples).

export interface VoiceSampleOutcome {
  rendered: number;
  present: number;
  failed: number;
}

/** One sample per distinct key, one at a time (a worker's cores are for dubbing). Never throws. */
export async function renderVoiceSamples(
  { blobStore, tts, capabilities }: { blobStore: BlobStore; tts: SpeechSynthesizer; capabilities: EngineCapabilities },
  logger: Logger,
  signal?: AbortSignal,
): Promise<VoiceSampleOutcome> {
  const voices = new Map<string, OfferedVoice>();
  for (const locale of capabilities.locales) for (const voice of locale.voices ?? []) if (!voices.has(voice.sampleKey)) voices.set(voice.sampleKey, voice);
  const outcome: VoiceSampleOutcome = { rendered: 0, present: 0, failed: 0 };
  if (voices.size === 0) return outcome;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'voice-samples-'));
  try {
    for (const [key, voice] of voices) {
      if (signal?.aborted) break;
      try {
        if (await blobStore.stat(key)) {
          outcome.present++;
          continue;
        }
        const file = path.join(dir, `${outcome.rendered}.wav`);
        await tts.synthesize(sampleSentence(voice.locale), voice.id, file);
        await blobStore.putFile(key, file);
        outcome.rendered++;
      } catch (err) {
        // A voice that cannot speak its sample now is only logged: its sample URL answers 503
        // until a worker renders it, and dubbing with it fails (and says why) on its own.
        outcome.failed++;
        logger.warn('voice sample not rendered', { voice: voice.id, locale: voice.locale, err });
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  logger.info('voice samples ready', { ...outcome });
  return outcome;
}
