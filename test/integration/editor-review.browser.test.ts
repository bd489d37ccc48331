import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'puppeteer-core';
import { issueReviewerKey } from '../../src/auth/issue-api-key';
import { listSourceSegments } from '../../src/db/source-segments';
import { parseVtt } from '../../src/publish/captions';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { recognizerProcesses } from '../helpers/engine-counters';
import { bearer, createTenant } from '../helpers/fixtures';
import { launchChromium, pageAttempts, watchedPage } from '../helpers/headless-browser';
import { startOutboundRecorder, type OutboundRecorder } from '../helpers/outbound-recorder';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request } from '../helpers/test-api';

// A reviewer in the editor (docs/editing.md#reviewers), in headless Chromium on the real stack:
// a customer's project dubbed from its own script (no speech recognition, yet its speech is
// there to listen to) asks for a transcript review; a reviewer key opens the queue at
// /editor/reviews, opens the review, plays a segment, corrects a word, claims and submits. The
// review is verified with the corrected words, and the customer's language is dubbed again
// from them, free. Every request the page made went to this API. A screenshot is written
// (.test-tmp/editor-review.png; with UPDATE_DOCS_SCREENSHOTS=1 also docs/editor-review.png).

const CPS = 10;
const BROWSER_STEP_MS = 60_000;
const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = 'WEBVTT\n\n00:00:00.300 --> 00:00:01.800\nGood morning.\n\n00:00:02.000 --> 00:00:03.700\nThe whether is nice today.\n';
const CORRECTED = 'The weather is nice today.';

const suite = dubbingSuite('editor-review-browser-', 'Good morning. The weather is nice today.');
let outbound: OutboundRecorder;
let browser: Browser;
const reviewWorkflows: string[] = [];

beforeAll(async () => {
  outbound = await startOutboundRecorder();
  browser = await launchChromium({ profileDir: suite.dir, proxyUrl: outbound.url, width: 1100, height: 560 });
}, 60_000);

afterAll(async () => {
  for (const id of reviewWorkflows)
    await suite.api.temporal.workflow
      .getHandle(id)
      .terminate('test done')
      .catch(() => undefined);
  await browser?.close();
  await outbound?.close();
});

interface PageElement {
  value: string;
  textContent: string | null;
  disabled: boolean;
  hidden: boolean;
}
interface PageAudio {
  currentTime: number;
  addEventListener(event: string, listener: () => void, options: { once: boolean }): void;
}
declare const document: { querySelector(selector: string): (PageElement & PageAudio) | null };

function sourcePaused(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const audio = document.querySelector('#source-player')!;
        audio.addEventListener('pause', () => resolve(audio.currentTime), { once: true });
      }),
  );
}

const reviewRow = (id: string) => suite.api.db.selectFrom('transcript_reviews').select(['status', 'reviewer', 'reviewer_key_id']).where('project_id', '=', id).executeTakeFirstOrThrow();

it('a reviewer finds the review in the queue, listens, corrects a word, claims and submits it', async () => {
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  await suite.worker.use();
  const recognizedBefore = await recognizerProcesses();
  const created = await createProject(
    suite.api,
    tenant,
    projectBody({ name: 'Weather report', transcript: { format: 'vtt', content: SCRIPT }, source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length } }),
  );
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
  await waitForProjectView(suite.api, tenant, id, 'the project completed', (p) => p.status === 'completed' || p.status === 'failed', 120_000);
  expect(await recognizerProcesses()).toBe(recognizedBefore);
  const [first, second] = await listSourceSegments(suite.api.db, id);

  reviewWorkflows.push(transcriptReviewWorkflowId(id));
  const asked = await request(suite.api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/transcript-review`, {
    headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
    body: { max_billable_seconds: 60, preview_only: false },
  });
  expect(asked.body.data.review.charged_now_seconds).toBe(60);
  const ada = await issueReviewerKey(suite.api.db, { name: 'Ada Reviewer' });
  await suite.api.keyCache.sync();

  const { page, pageErrors, requested } = await watchedPage(browser, BROWSER_STEP_MS);

  // The queue, with the key in the fragment; the review opens from its row.
  await page.goto(`${suite.api.baseUrl}/editor/reviews#key=${ada.key}`);
  const link = `tr[data-project-id="${id}"] a`;
  await page.waitForSelector(link);
  expect(await page.$eval(link, (a) => a.textContent)).toBe('Weather report');
  expect(await page.$eval(`tr[data-project-id="${id}"]`, (tr) => tr.textContent)).toContain('waiting');
  await Promise.all([page.waitForNavigation(), page.click(link)]);
  const secondText = `tr[data-segment-id="${second!.id}"] td.source textarea`;
  await page.waitForSelector(secondText);
  expect(await page.$eval(secondText, (t) => (t as unknown as PageElement).value)).toBe('The whether is nice today.');
  expect(await page.$eval('#claim-review', (b) => (b as unknown as PageElement).hidden)).toBe(false);
  expect(await page.$eval('#submit-review', (b) => (b as unknown as PageElement).hidden)).toBe(true);

  // The first segment plays exactly its own stretch of the source's speech.
  const paused = sourcePaused(page);
  await page.click(`tr[data-segment-id="${first!.id}"] th button`);
  const stoppedAt = await paused;
  expect(stoppedAt).toBeGreaterThanOrEqual(first!.end_seconds - 0.05);
  expect(stoppedAt).toBeLessThan(first!.end_seconds + 0.3);

  // A corrected word is a draft in the tab: nothing is written until the review is submitted.
  await page.click(secondText);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.type(CORRECTED);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#review-status')?.textContent?.includes('1 segment corrected') === true);
  expect((await listSourceSegments(suite.api.db, id)).map((s) => s.text)).toEqual(['Good morning.', 'The whether is nice today.']);

  // Claimed: the review is Ada's, and Submit appears.
  await page.click('#claim-review');
  await page.waitForSelector('#submit-review:not([hidden]):not([disabled])');
  expect(await page.$eval('#review-status', (p) => p.textContent)).toBe('In review by you. 1 segment corrected so far.');
  expect(await reviewRow(id)).toEqual({ status: 'in_review', reviewer: 'Ada Reviewer', reviewer_key_id: ada.row.id });

  const shot = await page.screenshot({ type: 'png' });
  mkdirSync(path.join(ROOT, '.test-tmp'), { recursive: true });
  writeFileSync(path.join(ROOT, '.test-tmp', 'editor-review.png'), shot);
  if (process.env.UPDATE_DOCS_SCREENSHOTS) writeFileSync(path.join(ROOT, 'docs', 'editor-review.png'), shot);

  // Submitted: verified with the corrected words.
  await page.click('#submit-review');
  await page.waitForFunction(() => document.querySelector('#notice')?.textContent?.startsWith('Submitted by Ada Reviewer') === true);
  expect(await page.$eval('#error', (p) => p.textContent)).toBe('');
  expect(await reviewRow(id)).toEqual({ status: 'verified', reviewer: 'Ada Reviewer', reviewer_key_id: ada.row.id });
  expect((await listSourceSegments(suite.api.db, id)).map((s) => s.text)).toEqual(['Good morning.', CORRECTED]);
  expect(await suite.api.db.selectFrom('projects').select('transcript_source').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ transcript_source: 'verified' });
  await page.close();

  // The page never reached beyond this API, broke no rule of its policy, and threw nothing.
  expect(pageErrors).toEqual([]);
  expect(requested.filter((url) => !url.startsWith(`${suite.api.baseUrl}/`))).toEqual([]);
  expect(pageAttempts(outbound.attempts)).toEqual([]);

  // The customer's language is dubbed again from the verified words, free: revision 2.
  const redubbed = await waitForProjectView(suite.api, tenant, id, 'the re-dub published', (p) => p.languages[0]?.revision === 2, 120_000);
  expect(redubbed.transcript_review.status).toBe('verified');
  const vtt = await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
  expect(
    parseVtt(String(vtt.body))
      .map((c) => c.text)
      .join(' '),
  ).toMatch(/tiempo/i);
}, 300_000);
