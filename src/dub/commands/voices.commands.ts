import type { Command } from 'commander';
import { locale } from '../../shared/argument-parsers';
import type { DubContext } from '../dub-context';
import { table } from '../output';

// `dub voices`: the voices the service offers per target locale (GET /v1/dubbing/voices, no key
// needed), the default of each locale marked, with the URL that plays its sample (docs/voices.md).

export function registerVoiceCommands(program: Command, ctx: DubContext): void {
  program
    .command('voices')
    .description('The voices each target locale can be dubbed with, its default (*) first, and a sample URL to listen to.')
    .option('--locale <locale>', 'only this target locale, e.g. ca_es', locale)
    .option('--samples', "also print each voice's sample URL")
    .action(async (options: { locale?: string; samples?: boolean }) => {
      const voices = await ctx.client().listVoices(options.locale ? { locale: options.locale } : {});
      if (voices.length === 0) {
        ctx.out.line(options.locale ? `No voices for ${options.locale}; see dub --help and GET /v1/dubbing/locales.` : 'No voices: no worker has published its engines yet.');
        return;
      }
      const rows = [['LOCALE', 'VOICE', 'QUALITY', 'GENDER', 'NAME', ...(options.samples ? ['SAMPLE'] : [])]];
      for (const voice of voices) {
        rows.push([voice.locale, `${voice.default ? '*' : ' '} ${voice.id}`, voice.quality, voice.gender ?? '-', voice.name, ...(options.samples ? [voice.sample_url] : [])]);
      }
      for (const line of table(rows)) ctx.out.line(line);
    });
}
