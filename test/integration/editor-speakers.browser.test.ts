import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { listLanguageSegments } from '../../src/db/language-segments';
import { listSourceSegments } from '../../src/db/source-segments';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { launchChromium, pageAttempts, watchedPage } from '../helpers/headless-browser';
import { startOutboundRecorder, type OutboundRecorder } from '../helpers/outbound-recorder';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// Speakers in the editor (docs/editing.md#speakers), in headless Chromium on the real stack: a
// project dubbed from the customer's WebVTT script with two voices (`<v Ana>`, `<v Ben>`) opens
// with each line's speaker shown in the speaker's colour; Ben is renamed in the page, a line of
// Ana's is given to him, and he gets a third Italian voice after its sample is played. The
// regeneration quote counts exactly his lines (the voice or the speaker changed), and, confirmed,
// revision 2 speaks them with the chosen voice; the moved line's new clip plays to its end.
// Every request the page made went to this API. A screenshot is written
// (.test-tmp/editor-speakers.png; with UPDATE_DOCS_SCREENSHOTS=1 also docs/editor-speakers.png).

const CPS = 10;
// Italian offers four voices, so Ben can be given one that neither speaker has: both his lines
// (his own and the one he is given) then change voice, and the quote counts exactly those two.
const LOCALE = 'it_it';
const BROWSER_STEP_MS = 60_000;
const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = [
  'WEBVTT',
  '',
  '00:00:00.300 --> 00:00:01.800',
  '<v Ana>Good morning.',
  '',
  '00:00:02.000 --> 00:00:03.700',
  '<v Ben>The weather is nice today.',
  '',
  '00:00:04.000 --> 00:00:05.600',
  '<v Ana>Let us cook some rice.',
  '',
].join('\n');

const suite = dubbingSuite('editor-speakers-browser-', 'Good morning. The weather is nice today. Let us cook some rice.', { seconds: 6 });
let outbound: OutboundRecorder;
let browser: Browser;

beforeAll(async () => {
  outbound = await startOutboundRecorder();
  browser = await launchChromium({ profileDir: suite.dir, proxyUrl: outbound.url, width: 1100, height: 900 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await outbound?.close();
});

interface PageElement {
  value: string;
  textContent: string | null;
  disabled: boolean;
  currentSrc: string;
  selectedOptions: { textContent: string | null }[];
}
interface PageAudio {
  currentTime: number;
  duration: number;
  addEventListener(event: string, listener: () => void, options: { once: boolean }): void;
}
declare const document: { querySelector(selector: string): (PageElement & PageAudio) | null };
declare function scrollTo(x: number, y: number): void;

interface SpeakerView {
  id: string;
  label: string;
  position: number;
  segments: number;
  speech_seconds: number;
  voices: Record<string, { voice: string; chosen_by: string; variant: boolean }>;
}

const listSpeakers = async (tenant: TestTenant, id: string): Promise<SpeakerView[]> => {
  const res = await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/speakers`, { headers: bearer(tenant.key) });
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Resolves when `selector`'s audio element fires `event`, with where it stood then. */
function audioEvent(page: Page, selector: string, event: 'ended') {
  return page.evaluate(
    (sel, name) =>
      new Promise<{ currentTime: number; duration: number; currentSrc: string }>((resolve) => {
        const audio = document.querySelector(sel)!;
        audio.addEventListener(name, () => resolve({ currentTime: audio.currentTime, duration: audio.duration, currentSrc: audio.currentSrc }), { once: true });
      }),
    selector,
    event,
  );
}

const row = (segmentId: string) => `tr[data-segment-id="${segmentId}"]`;
const card = (speakerId: string) => `.speaker-card[data-speaker-id="${speakerId}"]`;
const languageBox = `section.language[data-locale="${LOCALE}"]`;

async function replaceText(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

it('renames a speaker, gives him a line and a voice heard first, regenerates, and plays the new clip', async () => {
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  // A worker that renders the voices' samples once started, as workers do outside tests.
  await suite.worker.use({}, {}, { WORKER_VOICE_SAMPLES: 'true' });
  const created = await createProject(
    suite.api,
    tenant,
    projectBody({ name: 'Two voices', target_locales: [LOCALE], transcript: { format: 'vtt', content: SCRIPT }, source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length } }),
  );
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
  const done = await waitForProjectView(suite.api, tenant, id, 'the project completed', (p) => p.status === 'completed' || p.status === 'failed', 120_000);
  expect(done).toMatchObject({ status: 'completed', languages: [{ locale: LOCALE, status: 'completed', revision: 1 }] });

  // The script's two voices are the project's two speakers.
  const [first, second, third] = await listSourceSegments(suite.api.db, id);
  const [ana, ben] = await listSpeakers(tenant, id);
  expect([ana, ben].map((s) => [s!.label, s!.position, s!.segments])).toEqual([
    ['Ana', 1, 2],
    ['Ben', 2, 1],
  ]);
  expect([first, second, third].map((s) => s!.speaker_id)).toEqual([ana!.id, ben!.id, ana!.id]);

  // The voice Ben gets: one neither speaker has, once a worker has rendered its sample.
  const offered = (await request(suite.api.baseUrl, 'GET', `/v1/dubbing/voices?locale=${LOCALE}`)).body.data as { id: string; sample_url: string }[];
  expect(ana!.voices[LOCALE]!.voice).not.toBe(ben!.voices[LOCALE]!.voice);
  const chosen = offered.find((voice) => voice.id !== ben!.voices[LOCALE]!.voice && voice.id !== ana!.voices[LOCALE]!.voice)!;
  expect(chosen).toBeDefined();
  const samplePath = new URL(chosen.sample_url).pathname + new URL(chosen.sample_url).search;
  await waitFor(`the sample of ${chosen.id}`, async () => (await request(suite.api.baseUrl, 'GET', samplePath)).status === 302, 120_000, 500);

  const { page, pageErrors, requested } = await watchedPage(browser, BROWSER_STEP_MS);
  await page.goto(`${suite.api.baseUrl}/editor/projects/${id}#key=${tenant.key}`);
  await page.waitForSelector(`${card(ben!.id)} .voice[data-locale="${LOCALE}"] select option`);

  // Each row says who speaks it, in that speaker's colour; the cards say how much each says.
  const speakerOf = (segmentId: string) => page.$eval(`${row(segmentId)} td.speaker select`, (s) => (s as unknown as PageElement).selectedOptions[0]!.textContent);
  const hueOf = (selector: string) => page.$eval(selector, (e) => (e as unknown as { dataset: { speakerHue?: string } }).dataset.speakerHue);
  expect([await speakerOf(first!.id), await speakerOf(second!.id), await speakerOf(third!.id)]).toEqual(['Ana', 'Ben', 'Ana']);
  expect(await hueOf(row(first!.id))).toBe(await hueOf(card(ana!.id)));
  expect(await hueOf(row(second!.id))).toBe(await hueOf(card(ben!.id)));
  expect(await hueOf(row(first!.id))).not.toBe(await hueOf(row(second!.id)));
  expect(await page.$eval(`${card(ana!.id)} .speaker-stats`, (e) => e.textContent)).toMatch(/^2 lines · /);

  // Rename Ben in his card (saved on Enter): the rows say the new name.
  await replaceText(page, `${card(ben!.id)} input.speaker-label`, 'Benedict');
  await page.waitForFunction((sel) => document.querySelector(sel)?.selectedOptions[0]?.textContent === 'Benedict', {}, `${row(second!.id)} td.speaker select`);
  expect((await listSpeakers(tenant, id)).map((s) => s.label)).toEqual(['Ana', 'Benedict']);

  // Give Ana's last line to Benedict: saved at once, the counts follow.
  await page.select(`${row(third!.id)} td.speaker select`, ben!.id);
  await page.waitForSelector(`${row(third!.id)}[data-speaker-id="${ben!.id}"]`);
  await page.waitForFunction((sel) => /^2 lines · /.test(document.querySelector(sel)?.textContent ?? ''), {}, `${card(ben!.id)} .speaker-stats`);
  expect((await listSourceSegments(suite.api.db, id)).map((s) => s.speaker_id)).toEqual([ana!.id, ben!.id, ben!.id]);
  expect((await listSpeakers(tenant, id)).map((s) => s.segments)).toEqual([1, 2]);

  // Pick the third voice for him, hear its sample to the end, then make it his.
  const picker = `${card(ben!.id)} .voice[data-locale="${LOCALE}"]`;
  await page.select(`${picker} select`, chosen.id);
  const sampleEnded = audioEvent(page, '#sample-player', 'ended');
  await page.click(`${picker} button.play-sample`);
  const sample = await sampleEnded;
  expect(sample.currentSrc).toBe(chosen.sample_url);
  expect(sample.duration).toBeGreaterThan(1);
  await page.click(`${picker} button.use-voice`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.disabled === true, {}, `${picker} button.use-voice`);
  await waitFor('the voice saved', async () => (await listSpeakers(tenant, id))[1]!.voices[LOCALE]!.chosen_by === 'customer');
  expect((await listSpeakers(tenant, id))[1]!.voices[LOCALE]).toMatchObject({ voice: chosen.id, chosen_by: 'customer' });

  // Regenerate: the quote is Benedict's two lines (one with a new voice, one with a new speaker).
  const seconds = Math.ceil(Math.round((second!.end_seconds - second!.start_seconds + third!.end_seconds - third!.start_seconds) * 1000) / 1000);
  await page.click(`${languageBox} > button`);
  await page.waitForSelector(`${languageBox} .quote:not([hidden])`);
  expect(await page.$eval(`${languageBox} .quote-text`, (p) => p.textContent)).toBe(`2 segments will be dubbed again: ${seconds} seconds, ${seconds * CPS} credits.`);
  await page.click(`${languageBox} .quote button.primary`);
  await page.waitForFunction((box) => document.querySelector(`${box} .progress`)?.textContent === 'Revision 2 published.', { timeout: 90_000 }, languageBox);

  // The moved line's new clip, in Benedict's new voice, plays to its end (the box says
  // "published" once the table shows the new lines).
  const lines = await listLanguageSegments(suite.api.db, id, LOCALE);
  const moved = lines.find((l) => l.source_segment_id === third!.id)!;
  const clipEnded = audioEvent(page, '#clip-player', 'ended');
  await page.click(`${row(third!.id)} td[data-locale="${LOCALE}"] .line-tools button`);
  const ended = await clipEnded;
  expect(ended.duration).toBeGreaterThan(0.3);
  expect(ended.currentSrc).toContain(moved.clip_key!);
  expect(lines.map((l) => [l.source_segment_id, l.rendered_voice])).toEqual([
    [first!.id, ana!.voices[LOCALE]!.voice],
    [second!.id, chosen.id],
    [third!.id, chosen.id],
  ]);

  // The page from its top: the languages, the speakers' cards and the rows.
  await page.evaluate(() => scrollTo(0, 0));
  const shot = await page.screenshot({ type: 'png' });
  mkdirSync(path.join(ROOT, '.test-tmp'), { recursive: true });
  writeFileSync(path.join(ROOT, '.test-tmp', 'editor-speakers.png'), shot);
  if (process.env.UPDATE_DOCS_SCREENSHOTS) writeFileSync(path.join(ROOT, 'docs', 'editor-speakers.png'), shot);
  await page.close();

  // The page never reached beyond this API, broke no rule of its policy, and threw nothing.
  expect(pageErrors).toEqual([]);
  expect(requested.filter((url) => !url.startsWith(`${suite.api.baseUrl}/`))).toEqual([]);
  expect(pageAttempts(outbound.attempts)).toEqual([]);
  expect(await suite.api.db.selectFrom('project_languages').select('revision').where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ revision: 2 });
}, 300_000);
