import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'puppeteer-core';
import { upsertDeliverable } from '../../src/db/deliverables';
import { listLanguageSegments } from '../../src/db/language-segments';
import { listSourceSegments } from '../../src/db/source-segments';
import { createLocalEngines } from '../../src/engines';
import { detectCapabilities } from '../../src/engines/capabilities';
import { parseVtt, toVtt } from '../../src/publish/captions';
import { regenerationChargeReference } from '../../src/shared/ledger-references';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { launchChromium, pageAttempts, watchedPage } from '../helpers/headless-browser';
import { startOutboundRecorder, type OutboundRecorder } from '../helpers/outbound-recorder';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { completedProjectWithSegments, postRegenerate } from '../helpers/regenerations';
import { request } from '../helpers/test-api';

// The editor (docs/editing.md#the-editor) in headless Chromium on the real stack: a project
// dubbed by the real pipeline, opened at /editor/projects/{id}#key=…; a source segment edited in
// the page turns its Spanish line stale; Regenerate shows the quote and, confirmed, charges it
// and publishes revision 2, which the page shows without a reload; the segment's source audio
// and the new clip play; the downloaded captions carry the new words. Every request the page
// made went to this API. A screenshot of the page is written (.test-tmp/editor.png; with
// UPDATE_DOCS_SCREENSHOTS=1 also docs/editor.png, which docs/editing.md shows). A line whose
// published captions break a timed-text rule carries a QC badge naming it (docs/captions.md#qc).

const CPS = 10;
const LOCALE = 'es_es';
const NEW_TEXT = 'The house is quiet today.';
const BROWSER_STEP_MS = 60_000;
const ROOT = path.resolve(__dirname, '..', '..');

const suite = dubbingSuite('editor-browser-', 'Good morning. The weather is nice today.');
let outbound: OutboundRecorder;
let browser: Browser;

beforeAll(async () => {
  outbound = await startOutboundRecorder();
  browser = await launchChromium({ profileDir: suite.dir, proxyUrl: outbound.url, width: 1100, height: 640 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await outbound?.close();
});

/** A project dubbed by the real pipeline: recognized speech, one Spanish line per segment, revision 1. */
async function dubbedProject(tenant: TestTenant): Promise<string> {
  await suite.worker.use();
  const created = await createProject(suite.api, tenant, projectBody({ name: 'Kitchen talk', source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length } }));
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
  const done = await waitForProjectView(suite.api, tenant, id, 'the project completed', (p) => p.status === 'completed' || p.status === 'failed', 120_000);
  expect(done).toMatchObject({ status: 'completed', languages: [{ locale: LOCALE, status: 'completed', revision: 1 }] });
  return id;
}

// What the functions handed to page.evaluate use of the page, typed here: they run in the
// browser, and this program is typed for Node, without the DOM's library.
interface PageElement {
  value: string;
  title: string;
  dataset: Record<string, string | undefined>;
  textContent: string | null;
  disabled: boolean;
  hidden: boolean;
  currentSrc: string;
}
interface PageAudio {
  currentTime: number;
  duration: number;
  addEventListener(event: string, listener: () => void, options: { once: boolean }): void;
}
declare const document: { querySelector(selector: string): (PageElement & PageAudio) | null };
declare const location: { href: string };
declare const sessionStorage: { getItem(name: string): string | null };

const lineCell = (segmentId: string) => `tr[data-segment-id="${segmentId}"] td[data-locale="${LOCALE}"]`;
const languageBox = `section.language[data-locale="${LOCALE}"]`;

/** Resolves when `selector`'s audio element fires `event`, with where it stood then. */
function audioEvent(page: Page, selector: string, event: 'ended' | 'pause') {
  return page.evaluate(
    (sel, name) =>
      new Promise<{ currentTime: number; duration: number }>((resolve) => {
        const audio = document.querySelector(sel)!;
        audio.addEventListener(name, () => resolve({ currentTime: audio.currentTime, duration: audio.duration }), { once: true });
      }),
    selector,
    event,
  );
}

it('edits a segment, regenerates the language and plays the new clip, all in the page', async () => {
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await dubbedProject(tenant);
  const [first] = await listSourceSegments(suite.api.db, id);
  const before = await listLanguageSegments(suite.api.db, id, LOCALE);
  const line = before.find((l) => l.source_segment_id === first!.id)!;
  expect(line.status).toBe('current');

  const { page, pageErrors, requested } = await watchedPage(browser, BROWSER_STEP_MS);

  // Opened with the key in the fragment: taken into session storage, gone from the address bar.
  await page.goto(`${suite.api.baseUrl}/editor/projects/${id}#key=${tenant.key}`);
  await page.waitForSelector(`${lineCell(first!.id)} .badge[data-status="current"]`);
  expect(await page.evaluate(() => location.href)).toBe(`${suite.api.baseUrl}/editor/projects/${id}`);
  expect(await page.evaluate(() => sessionStorage.getItem('dubbing-editor-api-key'))).toBe(tenant.key);
  expect(await page.$eval(`tr[data-segment-id="${first!.id}"] td.source textarea`, (t) => (t as unknown as PageElement).value)).toBe(first!.text);
  expect(await page.$eval(`${lineCell(first!.id)} textarea`, (t) => (t as unknown as PageElement).value)).toBe(line.text);
  expect(await page.$eval(`${languageBox} .revision`, (p) => p.textContent)).toContain('Revision 1');

  // The source segment plays exactly its own stretch of the source speech.
  const sourceStopped = audioEvent(page, '#source-player', 'pause');
  await page.click(`tr[data-segment-id="${first!.id}"] th button`);
  const stopped = await sourceStopped;
  expect(stopped.currentTime).toBeGreaterThanOrEqual(first!.end_seconds - 0.05);
  expect(stopped.currentTime).toBeLessThan(first!.end_seconds + 0.3);

  // Edit the source text (saved on Enter): its Spanish line turns stale.
  const source = `tr[data-segment-id="${first!.id}"] td.source textarea`;
  await page.click(source, { clickCount: 3 });
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.type(NEW_TEXT);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${lineCell(first!.id)} .badge[data-status="stale"]`);
  expect((await listSourceSegments(suite.api.db, id)).find((s) => s.id === first!.id)!.text).toBe(NEW_TEXT);
  expect((await listLanguageSegments(suite.api.db, id, LOCALE)).find((l) => l.id === line.id)!.status).toBe('stale');
  expect(await suite.api.db.selectFrom('projects').select('transcript_source').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ transcript_source: 'edited' });

  // Regenerate: the quote first, for that one segment's seconds.
  const seconds = Math.ceil(Math.round((first!.end_seconds - first!.start_seconds) * 1000) / 1000);
  const balanceBefore = await suite.api.db.selectFrom('credit_balances').select(['captured']).where('workspace_id', '=', tenant.workspace.id).executeTakeFirstOrThrow();
  await page.click(`${languageBox} > button`);
  await page.waitForSelector(`${languageBox} .quote:not([hidden])`);
  const quote = await page.$eval(`${languageBox} .quote-text`, (p) => p.textContent);
  expect(quote).toBe(`1 segment will be dubbed again: ${seconds === 1 ? '1 second' : `${seconds} seconds`}, ${seconds * CPS} credits.`);
  expect(await suite.api.db.selectFrom('language_regenerations').select('id').where('project_id', '=', id).execute()).toEqual([]);

  // Confirmed: charged, and revision 2 shows up without a reload.
  await page.click(`${languageBox} .quote button.primary`);
  await page.waitForFunction((box) => document.querySelector(`${box} .progress`)?.textContent === 'Revision 2 published.', { timeout: 90_000 }, languageBox);
  await page.waitForSelector(`${lineCell(first!.id)} .badge[data-status="current"]`);
  expect(await page.$eval(`${languageBox} .revision`, (p) => p.textContent)).toContain('Revision 2');

  const modes = (await detectCapabilities()).locales.find((l) => l.locale === LOCALE)!.translationModes!;
  const [translated] = await createLocalEngines().translator.translate([NEW_TEXT], modes);
  expect(await page.$eval(`${lineCell(first!.id)} textarea`, (t) => (t as unknown as PageElement).value)).toBe(translated);

  // The new clip plays to its end.
  const clipEnded = audioEvent(page, '#clip-player', 'ended');
  await page.click(`${lineCell(first!.id)} .line-tools button`);
  const ended = await clipEnded;
  expect(ended.duration).toBeGreaterThan(0.3);
  const regenerated = (await listLanguageSegments(suite.api.db, id, LOCALE)).find((l) => l.source_segment_id === first!.id)!;
  expect(await page.$eval('#clip-player', (a) => (a as unknown as PageElement).currentSrc)).toContain(regenerated.clip_key!);

  const shot = await page.screenshot({ type: 'png' });
  mkdirSync(path.join(ROOT, '.test-tmp'), { recursive: true });
  writeFileSync(path.join(ROOT, '.test-tmp', 'editor.png'), shot);
  if (process.env.UPDATE_DOCS_SCREENSHOTS) writeFileSync(path.join(ROOT, 'docs', 'editor.png'), shot);
  await page.close();

  // The page never reached beyond this API, broke no rule of its policy, and threw nothing.
  expect(pageErrors).toEqual([]);
  expect(requested.filter((url) => !url.startsWith(`${suite.api.baseUrl}/`))).toEqual([]);
  expect(pageAttempts(outbound.attempts)).toEqual([]);

  // The captions carry the new words.
  const vtt = await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=${LOCALE}&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
  expect(vtt.status).toBe(200);
  expect(parseVtt(String(vtt.body)).map((c) => c.text)).toContain(translated);

  // The rows: the line current with the new words, the regeneration completed, the quote charged once.
  expect(regenerated).toMatchObject({ id: line.id, status: 'current', text: translated, rendered_text: translated });
  const regenerations = await suite.api.db.selectFrom('language_regenerations').selectAll().where('project_id', '=', id).execute();
  expect(regenerations).toEqual([expect.objectContaining({ locale: LOCALE, status: 'completed', segments: 1, billable_seconds: seconds, credits: seconds * CPS, from_revision: 1, to_revision: 2 })]);
  const charges = await suite.api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', id).where('reference', 'like', `${id}:regen:%`).execute();
  expect(charges).toEqual([{ reference: regenerationChargeReference(id, regenerations[0]!.id), kind: 'capture', amount: seconds * CPS }]);
  const balanceAfter = await suite.api.db.selectFrom('credit_balances').select(['captured']).where('workspace_id', '=', tenant.workspace.id).executeTakeFirstOrThrow();
  expect(Number(balanceAfter.captured) - Number(balanceBefore.captured)).toBe(seconds * CPS);
  expect(await suite.api.db.selectFrom('project_languages').select('revision').where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ revision: 2 });

  // What was written is a real picture of the page.
  const png = readFileSync(path.join(ROOT, '.test-tmp', 'editor.png'));
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(1100);
}, 300_000);

it("asks for a key the API takes, shows what the API refuses in its own words, and keeps a person's line", async () => {
  const tenant = await createTenant(suite.api.db, { credits: 1000, creditsPerSecond: CPS });
  const project = await completedProjectWithSegments(suite.api.db, tenant, {
    cues: [
      [0.5, 3, 'Hello everyone.'],
      [3.5, 6, 'Today we cook rice.'],
    ],
    creditsPerSecond: CPS,
  });
  const [firstSource, secondSource] = await listSourceSegments(suite.api.db, project.id);
  // Captions published for its lines (placed 0.6 s and 3.6 s on): the second line's cue shows 23
  // characters for 0.4 s, too fast to read and too short, which the editor marks on that line.
  const captionsKey = `projects/${project.id}/languages/${LOCALE}/captions.vtt`;
  const captions = Buffer.from(
    toVtt([
      { startSeconds: 0.6, endSeconds: 2.9, text: 'es: Hello everyone.' },
      { startSeconds: 3.6, endSeconds: 4, text: 'es: Today we cook rice.' },
    ]),
  );
  await suite.api.blobStore.put(captionsKey, Readable.from([captions]));
  await upsertDeliverable(suite.api.db, { project_id: project.id, locale: LOCALE, type: 'subtitles', format: 'vtt', storage_key: captionsKey, content_type: 'text/vtt', size_bytes: captions.length });
  // The first line as a revision that sped it up to 1.24× and still ran past the second line's
  // start (3.6 s) would have recorded it: the editor marks it (docs/editing.md#sync-report).
  await suite.api.db.updateTable('language_segments').set({ tempo: 1.24, placed_end_seconds: 3.8 }).where('id', '=', project.lines[0]!).execute();
  const page = await browser.newPage();
  page.setDefaultTimeout(BROWSER_STEP_MS);
  const errorText = () => page.$eval('#error', (p) => p.textContent);

  // /editor alone asks for the key, then for the project.
  await page.goto(`${suite.api.baseUrl}/editor`);
  await page.waitForSelector('#key-form:not([hidden])');
  // A key the API refuses: its message, and the key form again.
  const wrongKey = `${tenant.key.slice(0, -4)}zzzz`;
  const refusal = await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}`, { headers: bearer(wrongKey) });
  expect(refusal.status).toBe(401);
  await page.goto(`${suite.api.baseUrl}/editor/projects/${project.id}#key=${wrongKey}`);
  await page.waitForFunction(() => document.querySelector('#error')?.textContent !== '');
  expect(await errorText()).toBe(refusal.body.error.message);
  await page.waitForSelector('#key-form:not([hidden])');
  expect(await page.evaluate(() => sessionStorage.getItem('dubbing-editor-api-key'))).toBeNull();
  await page.type('#api-key', tenant.key);
  await page.click('#key-form button');
  await page.waitForSelector(`tr[data-segment-id="${firstSource!.id}"] .badge[data-status="current"]`);
  expect(await errorText()).toBe('');
  // The QC badge: on the second line only, naming its rules, the details in its title.
  const qcBadge = (segmentId: string) => `tr[data-segment-id="${segmentId}"] td[data-locale="${LOCALE}"] .qc-badge`;
  await page.waitForSelector(`${qcBadge(secondSource!.id)}:not([hidden])`);
  const badge = await page.$eval(qcBadge(secondSource!.id), (b) => {
    const element = b as unknown as PageElement;
    return { text: element.textContent, rules: element.dataset.rules, title: element.title };
  });
  expect(badge).toEqual({
    text: 'QC: reading speed, too short',
    rules: 'reading_speed min_duration',
    title: 'Timed-text QC (standard): Cue 2 (3.6 s–4 s): reading speed 57.5 > 17 characters a second; on screen 0.4 s < 0.833 s.',
  });
  expect(await page.$eval(qcBadge(firstSource!.id), (b) => (b as unknown as PageElement).hidden)).toBe(true);
  // The sync badge: on the first line only, the figures in its title.
  const syncBadge = (segmentId: string) => `tr[data-segment-id="${segmentId}"] td[data-locale="${LOCALE}"] .sync-badge`;
  const syncBadgeOf = (segmentId: string) =>
    page.$eval(syncBadge(segmentId), (b) => {
      const element = b as unknown as PageElement;
      return { hidden: element.hidden, text: element.textContent, flags: element.dataset.flags, title: element.title };
    });
  const firstSync = { hidden: false, text: '1.24×', flags: 'fast overlap', title: 'Sync: played at 1.24× (over 1.15×); starts 0.00 s after its source; runs into the next line, which starts late.' };
  expect(await syncBadgeOf(firstSource!.id)).toEqual(firstSync);
  expect((await syncBadgeOf(secondSource!.id)).hidden).toBe(true);
  // This project's speech was never extracted (its rows were written directly): nothing to play, and the page says so.
  expect(await page.$eval(`tr[data-segment-id="${firstSource!.id}"] th button`, (b) => (b as unknown as PageElement).disabled)).toBe(true);
  expect(await page.$eval('#source-audio-note', (p) => (p as unknown as PageElement).hidden)).toBe(false);

  // Blank text is refused by the API, in its words; the field gets its words back, nothing changes.
  const blank = await request(suite.api.baseUrl, 'PATCH', `/v1/dubbing/projects/${project.id}/transcript/segments/${firstSource!.id}`, { headers: bearer(tenant.key), body: { text: '' } });
  expect(blank.status).toBe(400);
  const source = `tr[data-segment-id="${firstSource!.id}"] td.source textarea`;
  await page.click(source);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#error')?.textContent !== '');
  expect(await errorText()).toBe(blank.body.error.message);
  expect(await page.$eval(source, (t) => (t as unknown as PageElement).value)).toBe('Hello everyone.');
  expect((await listSourceSegments(suite.api.db, project.id))[0]!.text).toBe('Hello everyone.');

  // A person's own line: `edited`, kept as written.
  const spanish = `tr[data-segment-id="${firstSource!.id}"] td[data-locale="${LOCALE}"] textarea`;
  await page.click(spanish);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.type('Hola a todos.');
  await page.keyboard.press('Tab');
  await page.waitForSelector(`tr[data-segment-id="${firstSource!.id}"] .badge[data-status="edited"]`);
  expect(await errorText()).toBe('');
  expect((await listLanguageSegments(suite.api.db, project.id, LOCALE))[0]).toMatchObject({ id: project.lines[0], status: 'edited', text: 'Hola a todos.' });
  // Its words changed, not what the published revision played: the same sync badge, as PATCH answered it.
  expect(await syncBadgeOf(firstSource!.id)).toEqual(firstSync);

  // The quote, as the API gives it; cancelled, nothing is charged.
  const quoted = (await postRegenerate(suite.api, tenant, project.id, { max_billable_seconds: 60 })).body.data.regeneration;
  expect(quoted.segments).toBeGreaterThanOrEqual(1);
  await page.click(`${languageBox} > button`);
  await page.waitForSelector(`${languageBox} .quote:not([hidden])`);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  expect(await page.$eval(`${languageBox} .quote-text`, (p) => p.textContent)).toBe(
    `${plural(quoted.segments, 'segment')} will be dubbed again: ${plural(quoted.billable_seconds, 'second')}, ${plural(quoted.credits, 'credit')}.`,
  );
  await page.click(`${languageBox} .quote button:not(.primary)`);
  await page.waitForSelector(`${languageBox} .quote`, { hidden: true });
  expect(await suite.api.db.selectFrom('language_regenerations').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
  expect(await suite.api.db.selectFrom('credit_ledger').select('reference').where('project_id', '=', project.id).execute()).toEqual([]);
  await page.close();
}, 120_000);
