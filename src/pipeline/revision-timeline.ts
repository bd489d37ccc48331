import { Readable } from 'node:stream';
import type { RecordedLoudness } from '../audio/program-gain';
import type { TimelineClip } from '../engines/media/media-engine';
import type { BackgroundMode } from '../shared/background-mode';
import type { RecordedDucking } from './dub-timeline';
import { BlobNotFoundError, type BlobStore } from '../storage/blob-store';
import { revisionFileKey } from './storage-keys';

// What a revision's timeline holds, stored beside its files (`<revision prefix>/timeline.json`):
// every clip where it plays, and what the quality figures need of it. The next regeneration
// compares its own timeline with this one to find the spans that changed, mixes only those again
// and splices them into copies of these files (src/pipeline/splice-dub.ts); a revision without
// the record (rendered before it existed) is rendered whole instead.

/** Its `gainDb` is the line's levelling gain (docs/audio.md#levelling); absent under `none`. */
export interface RecordedClip extends Omit<TimelineClip, 'file'> {
  lineId: string;
  /** The clip in the blob store. */
  key: string;
  playedSeconds: number;
  /** What is left of the clip's leading silence: for the quality figures, without fetching it again. */
  leadingSilenceSeconds: number;
}

export interface RevisionTimeline {
  version: 1;
  durationSeconds: number;
  /** Samples (per channel) of the published WAV: 48 kHz, 16-bit stereo. */
  samples: number;
  /** The source audio's gain under the dub; null when the source has no audio or the mode drops it. */
  backgroundVolume: number | null;
  /**
   * The project's background mode the revision was mixed with (docs/background.md); absent in
   * records written before there were modes, which were all `keep`.
   */
  background?: BackgroundMode;
  /** With `duck` over a source with audio: the envelope's shape, and whether the centre went under speech. */
  ducking?: RecordedDucking;
  /** What the thumbnail shows: the same again, and the file is copied instead of drawn. */
  thumbnail: { title: string; hasVideo: boolean };
  /**
   * The rate every clip shares as 16-bit mono PCM, which the mix strings its tracks at; null
   * when they do not share one. A span is mixed again exactly as the whole was only at that rate.
   */
  clipSampleRate: number | null;
  /**
   * The preset the mix was normalized to and its master: the program gain, the dialog limiter and
   * the delivered mix's measurement (docs/audio.md#regenerations). Absent in records written before
   * presets and stems, whose revisions are rendered whole by the next regeneration.
   */
  loudness?: RecordedLoudness;
  /** How the MP3 was encoded: constant bitrate without the bit reservoir, so its frames can be swapped. */
  mp3: 'cbr-128k-no-reservoir';
  clips: RecordedClip[];
}

export const MP3_ENCODING: RevisionTimeline['mp3'] = 'cbr-128k-no-reservoir';

export async function writeRevisionTimeline(blobStore: BlobStore, keyPrefix: string, timeline: RevisionTimeline): Promise<void> {
  await blobStore.put(revisionFileKey(keyPrefix, 'timeline'), Readable.from([Buffer.from(JSON.stringify(timeline))]));
}

/** The revision's record, or null when it has none (or one of another version). */
export async function readRevisionTimeline(blobStore: BlobStore, keyPrefix: string): Promise<RevisionTimeline | null> {
  let bytes: Buffer;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of (await blobStore.get(revisionFileKey(keyPrefix, 'timeline'))) as AsyncIterable<Buffer>) chunks.push(chunk);
    bytes = Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof BlobNotFoundError) return null;
    throw err;
  }
  const record = JSON.parse(bytes.toString('utf8')) as RevisionTimeline;
  return record.version === 1 ? record : null;
}
