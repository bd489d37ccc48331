import { createDubbingClient, type Speaker } from '../../../src/client';
import { speakerId, speakerLabel, voiceId } from '../../../src/dub/arguments';
import type { DubContext } from '../../../src/dub/dub-context';
import { runDub } from '../../../src/dub/main';
import { buildDubProgram } from '../../../src/dub/program';

// `dub speakers` and its subcommands (docs/cli.md#dub-speakers-project-id): how each command line
// is read into its API call, on the real client with a scripted fetch, what it prints, and the
// command lines refused before anything is sent (exit code 2).

const PROJECT = '0b0e5a4e-6f0c-4f57-9a1e-2f1d3c4b5a69';
const ana: Speaker = {
  id: 'spk_ab12cd34ef56gh78',
  label: 'Ana',
  position: 1,
  median_pitch_hz: 182.4,
  segments: 12,
  speech_seconds: 43.2,
  voices: { es_es: { voice: 'espeak:es+f3', chosen_by: 'machine', variant: false }, ca_es: { voice: 'festival:upc_ca_ona_hts', chosen_by: 'customer', variant: false } },
};
const ben: Speaker = {
  id: 'spk_zz98yy76xx54ww32',
  label: 'Ben',
  position: 2,
  median_pitch_hz: null,
  segments: 3,
  speech_seconds: 7.05,
  voices: { es_es: { voice: 'espeak:es+m3', chosen_by: 'machine', variant: true } },
};

/** Runs one `dub` command line on a client whose fetch answers `answer` and records what was asked. */
async function run(argv: string[], answer: unknown) {
  const lines: string[] = [];
  const requests: { method: string; url: string; body: unknown }[] = [];
  const ctx: DubContext = {
    out: { tty: false, stream: process.stdout, line: (t) => lines.push(t), error: (t) => lines.push(`ERR ${t}`) },
    cwd: '/',
    credentials: () => ({ apiKey: 'k', baseUrl: 'http://api.test', from: { apiKey: '', baseUrl: '' } }),
    client: () =>
      createDubbingClient({
        baseUrl: 'http://api.test',
        apiKey: 'k',
        fetch: async (request) => {
          const text = await request.text();
          requests.push({ method: request.method, url: request.url, body: text ? JSON.parse(text) : undefined });
          return new Response(JSON.stringify({ data: answer }), { status: 200, headers: { 'content-type': 'application/json' } });
        },
      }),
  };
  await buildDubProgram(ctx).parseAsync(argv, { from: 'user' });
  return { lines, requests };
}

const base = `http://api.test/v1/dubbing/projects/${PROJECT}/speakers`;

it('lists the speakers: id, label, lines, seconds, pitch and a voice per language', async () => {
  const { lines, requests } = await run(['speakers', PROJECT], [ana, ben]);
  expect(requests).toEqual([{ method: 'GET', url: base, body: undefined }]);
  expect(lines).toEqual([
    'ID                    LABEL  LINES  SECONDS  PITCH   VOICE es_es             VOICE ca_es',
    'spk_ab12cd34ef56gh78  Ana    12     43.2     182 Hz  espeak:es+f3            festival:upc_ca_ona_hts (yours)',
    'spk_zz98yy76xx54ww32  Ben    3      7.0      -       espeak:es+m3 (variant)  -',
  ]);
  const json = await run(['speakers', PROJECT, '--json'], [ana]);
  expect(JSON.parse(json.lines.join('\n'))).toEqual([ana]);
});

it('renames a speaker, gives it a voice, and merges one into another', async () => {
  const renamed = await run(['speakers', 'rename', PROJECT, ana.id, '  Ana María '], { ...ana, label: 'Ana María' });
  expect(renamed.requests).toEqual([{ method: 'PATCH', url: `${base}/${ana.id}`, body: { label: 'Ana María' } }]);
  expect(renamed.lines).toEqual([`${ana.id} is now called Ana María.`]);

  const voiced = await run(['speakers', 'voice', PROJECT, ben.id, 'es_es', 'espeak:es+m1'], { ...ben, voices: { es_es: { voice: 'espeak:es+m1', chosen_by: 'customer', variant: false } } });
  expect(voiced.requests).toEqual([{ method: 'PATCH', url: `${base}/${ben.id}`, body: { voices: { es_es: 'espeak:es+m1' } } }]);
  expect(voiced.lines).toEqual([`Ben (${ben.id}) speaks es_es with espeak:es+m1. Hear it: dub regenerate ${PROJECT} --locale es_es`]);

  const merged = await run(['speakers', 'merge', PROJECT, ben.id, '--into', ana.id], { ...ana, segments: 15, speech_seconds: 50.25 });
  expect(merged.requests).toEqual([{ method: 'POST', url: `${base}/${ben.id}/merge`, body: { into_speaker_id: ana.id } }]);
  expect(merged.lines[0]).toBe(`Merged ${ben.id} into Ana (${ana.id}): 15 lines, 50.3 s of speech.`);
});

it('refuses a malformed command line before sending anything (exit code 2)', async () => {
  const refused = async (argv: string[]) => {
    const errors: string[] = [];
    const code = await runDub(argv, {
      out: { tty: false, stream: process.stdout, line: () => undefined, error: (t) => errors.push(t) },
      env: { DUB_API_KEY: 'k', DUB_BASE_URL: 'http://127.0.0.1:9' },
      cwd: '/',
    });
    return { code, errors: errors.join('\n') };
  };
  expect(await refused(['speakers', 'not-a-uuid'])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a UUID') });
  expect(await refused(['speakers', 'rename', PROJECT, 'speaker-1', 'Ana'])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a speaker id') });
  expect(await refused(['speakers', 'rename', PROJECT, ana.id, '   '])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a name') });
  expect(await refused(['speakers', 'rename', PROJECT, ana.id])).toMatchObject({ code: 2, errors: expect.stringContaining("missing required argument 'label'") });
  expect(await refused(['speakers', 'voice', PROJECT, ana.id, 'Spanish', 'espeak:es'])).toMatchObject({ code: 2, errors: expect.stringContaining('Expected a locale') });
  expect(await refused(['speakers', 'merge', PROJECT, ben.id])).toMatchObject({ code: 2, errors: expect.stringContaining("required option '--into <speaker-id>' not specified") });
  expect(await refused(['speakers', 'merge', PROJECT, ben.id, '--into', ben.id])).toMatchObject({ code: 2, errors: expect.stringContaining('cannot be merged into itself') });
});

it('reads speaker ids, names and voice ids, and refuses what is not one', () => {
  expect(speakerId('spk_ab12cd34ef56gh78')).toBe('spk_ab12cd34ef56gh78');
  expect(() => speakerId('spk_')).toThrow('Expected a speaker id');
  expect(() => speakerId('ab12cd34')).toThrow('Expected a speaker id');
  expect(speakerLabel('  Ana  ')).toBe('Ana');
  expect(speakerLabel('é'.repeat(60))).toHaveLength(60);
  expect(() => speakerLabel('x'.repeat(61))).toThrow('at most 60 characters');
  expect(voiceId('festival:upc_ca_ona_hts')).toBe('festival:upc_ca_ona_hts');
  expect(() => voiceId('espeak es')).toThrow('Expected a voice id');
});
