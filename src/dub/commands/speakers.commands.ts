import type { Command } from 'commander';
import type { Speaker } from '../../client';
import { locale, speakerId, speakerLabel, uuid, voiceId } from '../arguments';
import { UsageError, type DubContext } from '../dub-context';
import { table } from '../output';

// Who speaks in a project (docs/speakers.md): `dub speakers <project-id>` lists them, and its
// subcommands rename one, give one a voice in a language, or merge one into another. All free;
// what changes a line's voice is dubbed again at that language's next `dub regenerate`.

const JSON_FLAG = ['--json', "print the API's JSON instead of the table"] as const;

/** The target locales the speakers have voices in, in the order the API lists them. */
function localesOf(speakers: Speaker[]): string[] {
  return [...new Set(speakers.flatMap((speaker) => Object.keys(speaker.voices)))];
}

/** `espeak:es+f3`, marked `(yours)` when the customer chose it and `(variant)` for an engine variant. */
function voiceCell(voice: Speaker['voices'][string] | undefined): string {
  if (!voice) return '-';
  return [voice.voice, voice.chosen_by === 'customer' ? '(yours)' : null, voice.variant ? '(variant)' : null].filter(Boolean).join(' ');
}

function speakerRows(speakers: Speaker[]): string[][] {
  const locales = localesOf(speakers);
  const head = ['ID', 'LABEL', 'LINES', 'SECONDS', 'PITCH', ...locales.map((l) => `VOICE ${l}`)];
  const rows = speakers.map((s) => [
    s.id,
    s.label,
    String(s.segments),
    s.speech_seconds.toFixed(1),
    s.median_pitch_hz === null ? '-' : `${Math.round(s.median_pitch_hz)} Hz`,
    ...locales.map((l) => voiceCell(s.voices[l])),
  ]);
  return [head, ...rows];
}

export function registerSpeakerCommands(program: Command, ctx: DubContext): void {
  const speakers = program
    .command('speakers')
    .description("Lists a project's speakers: id, label, lines, seconds of speech, pitch, and voice per language. Its subcommands rename, give a voice, merge (all free).")
    .argument('<project-id>', 'the project id', uuid)
    .option(...JSON_FLAG)
    .action(async (projectId: string, options: { json?: boolean }) => {
      const list = await ctx.client().listSpeakers(projectId);
      if (options.json) return ctx.out.line(JSON.stringify(list, null, 2));
      if (list.length === 0) return ctx.out.line(`Project ${projectId} has no speakers yet: they are found once its speech is transcribed.`);
      for (const line of table(speakerRows(list))) ctx.out.line(line);
    });

  speakers
    .command('rename')
    .description("Gives a speaker another name (1 to 60 characters, not another speaker's); captions name speakers by it.")
    .argument('<project-id>', 'the project id', uuid)
    .argument('<speaker-id>', 'the speaker, e.g. spk_ab12cd34ef56gh78', speakerId)
    .argument('<label>', 'the new name, e.g. "Ana"', speakerLabel)
    .action(async (projectId: string, speaker: string, label: string) => {
      const renamed = await ctx.client().updateSpeaker(projectId, speaker, { label });
      ctx.out.line(`${renamed.id} is now called ${renamed.label}.`);
    });

  speakers
    .command('voice')
    .description("Gives a speaker a voice in one target language (an id from dub voices --locale <l>); its lines are spoken with it from that language's next regeneration.")
    .argument('<project-id>', 'the project id', uuid)
    .argument('<speaker-id>', 'the speaker, e.g. spk_ab12cd34ef56gh78', speakerId)
    .argument('<locale>', 'the target language, e.g. es_es', locale)
    .argument('<voice-id>', 'the voice, e.g. espeak:es+f3', voiceId)
    .action(async (projectId: string, speaker: string, target: string, voice: string) => {
      const changed = await ctx.client().updateSpeaker(projectId, speaker, { voices: { [target]: voice } });
      ctx.out.line(`${changed.label} (${changed.id}) speaks ${target} with ${changed.voices[target]?.voice ?? voice}. Hear it: dub regenerate ${projectId} --locale ${target}`);
    });

  speakers
    .command('merge')
    .description('Moves every line of a speaker to another (two speakers found where there is one person); the first speaker is gone after.')
    .argument('<project-id>', 'the project id', uuid)
    .argument('<speaker-id>', 'the speaker whose lines move, e.g. spk_ab12cd34ef56gh78', speakerId)
    .requiredOption('--into <speaker-id>', 'the speaker that keeps them', speakerId)
    .action(async (projectId: string, speaker: string, options: { into: string }) => {
      if (speaker === options.into) throw new UsageError('A speaker cannot be merged into itself: --into names the other speaker.');
      const kept = await ctx.client().mergeSpeakers(projectId, speaker, options.into);
      ctx.out.line(`Merged ${speaker} into ${kept.label} (${kept.id}): ${kept.segments} lines, ${kept.speech_seconds.toFixed(1)} s of speech.`);
      ctx.out.line(`Its lines are spoken with ${kept.label}'s voices from each language's next regeneration (dub regenerate ${projectId} --locale <l>).`);
    });
}
