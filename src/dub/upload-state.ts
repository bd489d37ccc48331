import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { CreateProjectRequest } from '../client';

// The small file that ties `dub create <video>` to the one project it made: `<video>.dub.json`,
// next to the video. It is written before the project is created (so a create cut short is
// replayed with the same Idempotency-Key: the same project, never a second hold), then after
// each part the storage accepted, and kept once the upload is completed: the same command run
// again (after a Ctrl-C during --wait, say) then follows that project instead of creating and
// paying for another. `--new` (or deleting the file) starts a new project. See docs/cli.md.

export interface UploadState {
  version: 1;
  base_url: string;
  /** Null until the create answered. */
  project_id: string | null;
  idempotency_key: string;
  /** The file as it was: a changed file must not be completed with the old one's parts. */
  file: { size_bytes: number; mtime_ms: number };
  request: CreateProjectRequest;
  /** part number → ETag, for every part the storage accepted. */
  parts: Record<string, string>;
  /** The same for the `--background-track` file's parts (docs/background.md#your-own-music-and-effects-track). */
  track_parts?: Record<string, string>;
  /** When the upload was completed (absent in files written before this was kept). */
  completed_at?: string | null;
}

export const statePathFor = (video: string) => `${video}.dub.json`;

export function readUploadState(file: string): UploadState | null {
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as UploadState;
    return state.version === 1 && typeof state.idempotency_key === 'string' ? state : null;
  } catch {
    return null; // half-written or edited by hand: start over rather than trust it
  }
}

/** Whether the state was written for this very file (same size and modification time) and API. */
export function stateMatches(state: UploadState, video: string, baseUrl: string): boolean {
  const stat = statSync(video);
  return state.base_url === baseUrl && state.file.size_bytes === stat.size && state.file.mtime_ms === Math.trunc(stat.mtimeMs);
}

const sorted = (locales: string[]) => [...locales].sort().join(',');

/**
 * The options of `recorded` that `wanted` does not repeat, as the flags that would repeat them
 * (`--to es_es,ca_es`); empty when it is the same request. The order of the locales is not a difference.
 */
export function requestDifferences(recorded: CreateProjectRequest, wanted: CreateProjectRequest): string[] {
  const differences: string[] = [];
  if (sorted(recorded.target_locales) !== sorted(wanted.target_locales)) differences.push(`--to ${recorded.target_locales.join(',')}`);
  if (recorded.source_locale !== wanted.source_locale) differences.push(`--from ${recorded.source_locale}`);
  if (recorded.name !== wanted.name) differences.push(`--name ${JSON.stringify(recorded.name)}`);
  if (recorded.max_billable_seconds !== wanted.max_billable_seconds) differences.push(`--max-seconds ${recorded.max_billable_seconds}`);
  const burned = (r: CreateProjectRequest) => r.video?.burned_captions === true;
  if (burned(recorded) !== burned(wanted)) differences.push(burned(recorded) ? '--burn-captions' : 'no --burn-captions');
  if ((recorded.background ?? null) !== (wanted.background ?? null)) differences.push(recorded.background ? `--background ${recorded.background}` : 'no --background');
  const track = (r: CreateProjectRequest) => (r.background_track ? `${r.background_track.file_name}:${r.background_track.size_bytes}` : null);
  if (track(recorded) !== track(wanted)) differences.push(recorded.background_track ? `--background-track ${recorded.background_track.file_name}` : 'no --background-track');
  if ((recorded.caption_rules ?? null) !== (wanted.caption_rules ?? null)) differences.push(recorded.caption_rules ? `--caption-rules ${recorded.caption_rules}` : 'no --caption-rules');
  if ((recorded.loudness ?? null) !== (wanted.loudness ?? null)) differences.push(recorded.loudness ? `--loudness ${recorded.loudness}` : 'no --loudness');
  const voices = (r: CreateProjectRequest) =>
    Object.entries(r.voices ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([l, v]) => `${l}=${v}`)
      .join(',');
  if (voices(recorded) !== voices(wanted)) differences.push(voices(recorded) ? `--voices ${voices(recorded)}` : 'no --voices');
  const range = (r: CreateProjectRequest) => (r.range ? `${r.range.start_seconds}-${r.range.end_seconds}` : null);
  if (range(recorded) !== range(wanted)) differences.push(recorded.range ? `--range ${range(recorded)}` : 'no --range');
  if ((recorded.glossary?.id ?? null) !== (wanted.glossary?.id ?? null)) differences.push(recorded.glossary ? `--glossary ${recorded.glossary.id}` : 'no --glossary');
  return differences;
}

export class UploadStateFile {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    readonly state: UploadState,
  ) {}

  static fresh(path: string, video: string, baseUrl: string, idempotencyKey: string, request: CreateProjectRequest): UploadStateFile {
    const stat = statSync(video);
    return new UploadStateFile(path, {
      version: 1,
      base_url: baseUrl,
      project_id: null,
      idempotency_key: idempotencyKey,
      file: { size_bytes: stat.size, mtime_ms: Math.trunc(stat.mtimeMs) },
      request,
      parts: {},
      completed_at: null,
    });
  }

  /** Written to a temp file and renamed, so a kill mid-write never leaves half a state. Writes are queued, never interleaved. */
  save(): Promise<void> {
    const text = `${JSON.stringify(this.state, null, 2)}\n`;
    this.writing = this.writing.then(() => {
      writeFileSync(`${this.path}.tmp`, text);
      renameSync(`${this.path}.tmp`, this.path);
    });
    return this.writing;
  }

  recordPart(partNumber: number, etag: string): Promise<void> {
    this.state.parts[String(partNumber)] = etag;
    return this.save();
  }

  recordTrackPart(partNumber: number, etag: string): Promise<void> {
    (this.state.track_parts ??= {})[String(partNumber)] = etag;
    return this.save();
  }

  /** The upload is done: the parts are no longer needed, the project id is. */
  markCompleted(at: Date = new Date()): Promise<void> {
    this.state.completed_at = at.toISOString();
    this.state.parts = {};
    delete this.state.track_parts;
    return this.save();
  }

  async remove(): Promise<void> {
    await this.writing;
    rmSync(this.path, { force: true });
  }
}
