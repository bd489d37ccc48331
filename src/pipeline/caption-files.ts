import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { qcCues } from '../captions/qc-cues';
import { captionRulesFor, type CaptionPreset } from '../captions/timed-text-rules';
import { layoutCaptions } from '../publish/caption-layout';
import { parseVtt, toSrt, toVtt, type Cue } from '../publish/captions';
import { toTtml } from '../publish/ttml';
import type { PlacedLine } from './dub-timeline';
import { REVISION_FILES } from './storage-keys';

// A revision's captions (docs/captions.md): one caption per line, cut and timed to the project's
// timed-text preset (src/publish/caption-layout.ts), written as SRT, WebVTT and TTML from the very
// same cues, and held to the preset's rules as published: QC reads the WebVTT back, as
// GET …/languages/{locale}/qc does, so the count the project view shows is the endpoint's.

export interface WrittenCaptions {
  /** The cues as published (what burned captions show too). */
  cues: Cue[];
  /** Every rule broken by a cue, counted (totals.breaches of the QC report). */
  breaches: number;
}

export async function writeCaptionFiles(workDir: string, placed: readonly PlacedLine[], track: { locale: string; preset: CaptionPreset; durationSeconds: number }): Promise<WrittenCaptions> {
  const rules = captionRulesFor(track.preset);
  const cues = layoutCaptions(
    placed.map((p) => p.cue),
    rules,
    { endSeconds: track.durationSeconds },
  );
  const vtt = toVtt(cues);
  await writeFile(path.join(workDir, REVISION_FILES.srt), toSrt(cues));
  await writeFile(path.join(workDir, REVISION_FILES.vtt), vtt);
  await writeFile(path.join(workDir, REVISION_FILES.ttml), toTtml(cues, { language: track.locale }));
  return { cues, breaches: qcCues(parseVtt(vtt), rules).totals.breaches };
}
