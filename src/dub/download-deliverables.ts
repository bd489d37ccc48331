import { createWriteStream, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Project } from '../client';
import type { DubContext } from './dub-context';
import { previewName } from '../shared/source-range';

// Saves every file of every completed language (or of one) into a folder, named as the API's
// downloads name them: "<project name>.<locale>.<format>" (a stem "<name>.<locale>.dialog-stem.wav"),
// a preview's "<project name> (preview 30-90s).<locale>.<format>".

/** A project name made safe as a file name on any system. */
export function fileStem(name: string): string {
  const safe = name
    .replace(/[/\\:*?"<>|\x00-\x1f]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  return safe || 'project';
}

export async function downloadDeliverables(ctx: DubContext, project: Project, outDir: string, locale?: string): Promise<string[]> {
  const languages = project.languages.filter((l) => l.status === 'completed' && (!locale || l.locale === locale));
  mkdirSync(outDir, { recursive: true });
  const saved: string[] = [];
  for (const language of languages) {
    for (const deliverable of language.deliverables) {
      // A stem is a WAV like the mix: saved under a name of its own (docs/audio.md#stems).
      const stem = deliverable.type === 'dialog_stem' ? '.dialog-stem' : deliverable.type === 'background_stem' ? '.background-stem' : '';
      const file = path.join(outDir, `${fileStem(previewName(project.name, project.range))}.${language.locale}${stem}.${deliverable.format}`);
      const response = await ctx.client().download(project.id, { locale: language.locale, type: deliverable.type, format: deliverable.format });
      if (!response.body) throw new Error(`The ${language.locale} ${deliverable.format} download had no body.`);
      // Written beside and renamed: an interrupted download never leaves a file that looks whole.
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(`${file}.part`));
      renameSync(`${file}.part`, file);
      saved.push(file);
      ctx.out.line(`Saved ${file}`);
    }
  }
  return saved;
}
