import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLocalEngines, fitSegments, type Engines } from '../../../src/engines';
import { ApertiumTranslator } from '../../../src/engines/translate/apertium-translator';
import { FfmpegMediaEngine } from '../../../src/engines/media/ffmpeg-media-engine';
import { findLocaleDefinition } from '../../../src/engines/locale-catalog';
import { parseVtt, toVtt } from '../../../src/publish/captions';
import { ffprobe, joinWithGap, makeTempDir, makeVideo, removeTempDir, speak } from '../../helpers/media-fixtures';

// One short dub through every local engine, the way the workflow strings them together.

let dir: string;

beforeAll(() => {
  dir = makeTempDir('local-engines');
});

afterAll(() => removeTempDir(dir));

it('creates the local engine set', () => {
  const engines: Engines = createLocalEngines();
  expect(engines.media).toBeInstanceOf(FfmpegMediaEngine);
  expect(engines.translator).toBeInstanceOf(ApertiumTranslator);
  expect(typeof engines.asr.transcribe).toBe('function');
  expect(typeof engines.tts.synthesize).toBe('function');
});

it('dubs a short English video into Spanish end to end', async () => {
  const { media, asr, translator, tts } = createLocalEngines();
  const spanish = findLocaleDefinition('es_es')!;

  const first = await speak('The house is red.', path.join(dir, 'first.wav'));
  const second = await speak('I like the green car.', path.join(dir, 'second.wav'));
  const voice = await joinWithGap([first, second], 1, path.join(dir, 'voice.wav'));
  const source = await makeVideo(path.join(dir, 'source.mp4'), 5, voice);

  const info = await media.probe(source);
  const asrWav = path.join(dir, 'asr.wav');
  await media.extractAudio(source, asrWav);
  const { segments } = await asr.transcribe(asrWav);
  expect(segments.length).toBeGreaterThan(0);

  const translated = await translator.translate(
    segments.map((s) => s.text),
    spanish.fromEnglish![0]!,
  );
  expect(translated).toHaveLength(segments.length);

  const clips = await Promise.all(
    translated.map(async (text, i) => {
      const file = path.join(dir, `clip-${i}.wav`);
      const { durationSeconds } = await tts.synthesize(text, spanish.voice, file);
      return { file, durationSeconds };
    }),
  );
  const fit = fitSegments(
    segments.map((s, i) => ({ startSeconds: s.startSeconds, endSeconds: s.endSeconds, synthesizedSeconds: clips[i]!.durationSeconds })),
    { timelineSeconds: info.durationSeconds },
  );
  const placed = await Promise.all(
    fit.segments.map(async (f, i) => {
      if (f.tempo === 1) return { file: clips[i]!.file, startSeconds: f.startSeconds };
      const stretched = path.join(dir, `clip-${i}-fast.wav`);
      await media.timeStretch(clips[i]!.file, stretched, f.tempo);
      return { file: stretched, startSeconds: f.startSeconds };
    }),
  );

  const background = await media.extractBackground(source, path.join(dir, 'background.wav'));
  const mix = path.join(dir, 'mix.wav');
  await media.renderTimeline({ clips: placed, durationSeconds: info.durationSeconds, background: { file: background!, volume: 0.1 } }, mix);
  const mp3 = path.join(dir, 'dub.mp3');
  await media.encodeMp3(mix, mp3);
  const probed = await ffprobe(mp3);
  expect(Math.abs(probed.durationSeconds - info.durationSeconds) / info.durationSeconds).toBeLessThan(0.03);

  const vtt = toVtt(fit.segments.map((f, i) => ({ startSeconds: f.startSeconds, endSeconds: f.endSeconds, text: translated[i]! })));
  writeFileSync(path.join(dir, 'dub.vtt'), vtt);
  const cues = parseVtt(vtt);
  expect(cues).toHaveLength(segments.length);
  for (const cue of cues) expect(cue.endSeconds).toBeLessThanOrEqual(info.durationSeconds + fit.totalDriftSeconds + 0.001);
});
