import path from 'node:path';
import { stat, writeFile } from 'node:fs/promises';
import type { Engines } from '../engines';
import type { Project } from '../db/projects';
import type { ProjectLanguage } from '../db/project-languages';
import { toBurnedCaptions } from '../publish/burned-captions';
import type { Cue } from '../publish/captions';
import { iso6392 } from '../shared/iso-639-2';
import type { BlobStore } from '../storage/blob-store';
import { VIDEO_FILE } from './storage-keys';

// The dubbed video of a revision (docs/video.md): the source's picture, the dub as the first,
// default audio track and the original soundtrack as the second, muxed after the mix from the
// files the render has just written (the published MP3, copied as it is) and the captions' cues. Streamed from disk by
// ffmpeg: nothing here holds a whole file in memory. A source without a video stream gets no
// video deliverable: the audio, captions and thumbnail are its deliverables.

/** What a revision's video needs to know besides its files; absent when the source has no video. */
export interface VideoRender {
  /** ISO 639-2 tags: the dub's (target) and the original's (source). */
  dubLanguage: string;
  sourceLanguage: string;
  burnedCaptions: boolean;
}

/** The captions to burn, in the work directory only: never published. */
const BURNED_CAPTIONS_FILE = 'burned-captions.ass';

export function videoRenderFor(project: Pick<Project, 'source_has_video' | 'source_locale'>, language: Pick<ProjectLanguage, 'locale' | 'video_burned_captions'>): VideoRender | undefined {
  if (!project.source_has_video) return undefined;
  return { dubLanguage: iso6392(language.locale), sourceLanguage: iso6392(project.source_locale), burnedCaptions: language.video_burned_captions };
}

export interface VideoFiles {
  workDir: string;
  /** The source file, local. */
  source: string;
  /** The revision's dub mix (its published MP3, copied into the MP4 as it is), local. */
  mp3: string;
  /** The revision's caption cues, as published: burned in when the language asks for it. */
  cues: readonly Cue[];
  sourceSeconds: number;
}

/** The codec of the published MP3 the video carries: told to the muxer rather than probed for each language. */
export const PUBLISHED_MP3_CODEC = 'mp3';

/** Muxes the revision's video and stores it under `keyPrefix`: the deliverable row to publish. */
export async function publishVideo({ blobStore, engines }: { blobStore: BlobStore; engines: Engines }, video: VideoRender, keyPrefix: string, files: VideoFiles, onTick: () => void) {
  const out = path.join(files.workDir, VIDEO_FILE);
  const burn = video.burnedCaptions ? await writeBurnedCaptions(files.workDir, files.cues) : undefined;
  await engines.media.muxVideo(
    {
      source: files.source,
      dubAudio: files.mp3,
      dubCodec: PUBLISHED_MP3_CODEC,
      dubLanguage: video.dubLanguage,
      sourceLanguage: video.sourceLanguage,
      burnCaptions: burn,
      sourceSeconds: files.sourceSeconds,
    },
    out,
    { onTick },
  );
  return storeVideo(blobStore, keyPrefix, out);
}

/** The captions to burn, written in the work directory: the file the subtitles filter reads. */
export async function writeBurnedCaptions(workDir: string, cues: readonly Cue[]): Promise<string> {
  // Burned from an ASS script of the cues, not the SRT: its text is drawn as written (burned-captions.ts).
  const file = path.join(workDir, BURNED_CAPTIONS_FILE);
  await writeFile(file, toBurnedCaptions(cues));
  return file;
}

/** The muxed video stored under `keyPrefix`: the deliverable row to publish. */
export async function storeVideo(blobStore: BlobStore, keyPrefix: string, file: string) {
  const key = `${keyPrefix}/${VIDEO_FILE}`;
  await blobStore.putFile(key, file);
  return { type: 'video' as const, format: 'mp4', key, contentType: 'video/mp4', sizeBytes: (await stat(file)).size };
}
