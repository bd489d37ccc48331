import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Engines } from '../engines';
import { leadingSilenceSeconds, trimLeadingSilence } from '../engines/tts/leading-silence';
import { spokenText } from '../engines/tts/spoken-terms';
import { trimTrailingSilence } from '../engines/tts/trailing-silence';
import { parseVoiceId } from '../engines/tts/voice-ids';
import type { GlossaryEntry } from '../shared/glossary-entry';
import type { LanguageSegment } from '../db/language-segments';
import { clipReusable } from '../shared/line-plan';
import type { BlobStore, LocalFileOptions } from '../storage/blob-store';
import { clipKey } from './storage-keys';

// The spoken clip of each line of a render: synthesized for a line whose words changed (or that
// never had one) and stored in the blob store under the revision's prefix, or the clip the
// published revision played, fetched again. Only what changed costs speech.

export interface LineClip {
  line: LanguageSegment;
  /** The clip in the work dir: a fresh clip's, or a kept one's once fetched (fetchClipFiles). */
  file?: string;
  /** Its key in the blob store. */
  key: string;
  /** How long it sounds, its lead trimmed. */
  seconds: number;
  /** What is left of its leading silence, for the quality figures. */
  leadingSilence: number;
  /** Synthesized by this render (not the published clip played again). */
  fresh: boolean;
}

/** Silence kept before a clip's first sound when its lead is cut: enough to avoid a click. */
const ONSET_KEEP_SECONDS = 0.01;
/** Silence kept after a clip's last sound when its end pause is cut, for the same reason. */
const TAIL_KEEP_SECONDS = 0.01;

/** Blob store transfers in flight at once: many small clips, without flooding the store. */
const TRANSFER_CONCURRENCY = 8;

async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += TRANSFER_CONCURRENCY) results.push(...(await Promise.all(items.slice(i, i + TRANSFER_CONCURRENCY).map(work))));
  return results;
}

export interface LineClipsInput {
  lines: readonly LanguageSegment[];
  /** The language's voice: what a line without a voice of its own speaks with. */
  voice: string;
  workDir: string;
  keyPrefix: string;
  onTick: () => void;
  transfer?: LocalFileOptions;
  /**
   * The leading silence of published clips, by line id, when the previous render recorded it: a
   * kept clip found here is not fetched (a regeneration fetches only the clips it mixes again).
   */
  knownLeadingSilence?: ReadonlyMap<string, number>;
  /** The project's pinned glossary and the language's locale: terms are said as its pronunciations say (docs/glossaries.md#pronunciations). */
  glossary: { entries: readonly GlossaryEntry[]; locale: string };
}

/** One clip per spoken line, in the lines' order. */
export async function lineClips({ blobStore, engines }: { blobStore: BlobStore; engines: Engines }, input: LineClipsInput): Promise<LineClip[]> {
  const fresh = input.lines.filter((line) => !clipReusable(line));
  const kept = input.lines.filter((line) => clipReusable(line));
  const clips = new Map<string, LineClip>();

  if (fresh.length > 0) {
    // One synthesizer call per voice for its lines: a process per sentence was most of a dub's
    // time. A line speaks its speaker's voice, else the language's (docs/speakers.md#voices).
    const files = fresh.map((line) => path.join(input.workDir, `${line.id}.wav`));
    const synthesized: { durationSeconds: number }[] = new Array(fresh.length);
    for (const [voice, indexes] of groupByVoice(fresh, input.voice)) {
      const engine = parseVoiceId(voice).engine;
      const say = (text: string) => spokenText(text, input.glossary.entries, input.glossary.locale, engine);
      const results = await engines.tts.synthesizeBatch(
        indexes.map((i) => say(fresh[i]!.text)),
        voice,
        indexes.map((i) => files[i]!),
        { onTick: input.onTick },
      );
      indexes.forEach((i, k) => (synthesized[i] = results[k]!));
    }
    input.onTick();
    // espeak-ng starts a clip with up to ~0.1 s of silence; cut it, so the dub is heard when
    // its source sentence starts (dub_quality's start offset) and needs less speed-up. What is
    // left of each lead is kept for the quality figures, so no clip is read twice.
    await inBatches(
      fresh.map((line, i) => ({ line, file: files[i]!, seconds: synthesized[i]!.durationSeconds })),
      async ({ line, file, seconds }) => {
        const bytes = await readFile(file);
        const lead = leadingSilenceSeconds(bytes);
        const trimmed = trimLeadingSilence(bytes, ONSET_KEEP_SECONDS);
        // Its end pause too: the line is speaking only until its last sound, and the next line may
        // start then (docs/recognition.md#timing), not a breath later.
        const tailed = trimTrailingSilence(trimmed?.wav ?? bytes, TAIL_KEEP_SECONDS);
        if (trimmed || tailed) await writeFile(file, (tailed ?? trimmed)!.wav);
        const leadCut = trimmed?.trimmedSeconds ?? 0;
        const cut = leadCut + (tailed?.trimmedSeconds ?? 0);
        const key = clipKey(input.keyPrefix, line.id);
        await blobStore.putFile(key, file);
        clips.set(line.id, { line, file, key, seconds: seconds - cut, leadingSilence: lead - leadCut, fresh: true });
      },
    );
  }

  await inBatches(kept, async (line) => {
    const key = line.clip_key!;
    const known = input.knownLeadingSilence?.get(line.id);
    if (known !== undefined) {
      clips.set(line.id, { line, key, seconds: line.clip_seconds!, leadingSilence: known, fresh: false });
      return;
    }
    const file = await blobStore.toLocalFile(key, input.workDir, input.transfer);
    clips.set(line.id, { line, file, key, seconds: line.clip_seconds!, leadingSilence: leadingSilenceSeconds(await readFile(file)), fresh: false });
  });
  return input.lines.map((line) => clips.get(line.id)!);
}

/** Line indexes by the voice each is spoken with, voices in order of first use. */
function groupByVoice(lines: readonly LanguageSegment[], languageVoice: string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const voice = line.voice ?? languageVoice;
    groups.set(voice, [...(groups.get(voice) ?? []), i]);
  });
  return groups;
}

/** Fetches the clips not in the work dir yet; answers each clip's file, in order. */
export async function fetchClipFiles(blobStore: BlobStore, clips: readonly LineClip[], workDir: string, transfer?: LocalFileOptions): Promise<string[]> {
  return inBatches(clips, async (clip) => (clip.file ??= await blobStore.toLocalFile(clip.key, workDir, transfer)));
}
