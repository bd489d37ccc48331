import { randomUUID } from 'node:crypto';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { additionRows, dubbedProject, postLanguages } from '../helpers/language-additions';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// POST /v1/dubbing/projects/{id}/languages when it must not change anything: previews, requests
// over their limit, requests the credits cannot pay, bad input, and projects whose billable
// seconds are not (or never will be) known. Each one answers and leaves every row as it was.

const CPS = 10;
let api: TestApi;
let worker: TestWorker;
let dir: string;
let clip: Buffer;
/** Holds exactly the first project's ceiling (10 s × 1 language): after its charge, 60 credits remain. */
let tenant: TestTenant;
let project: any;
let billable: number;

beforeAll(async () => {
  dir = makeTempDir('lang-quote-');
  clip = await spokenClip(dir, 'The market opens early and closes late.', 4);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
  tenant = await createTenant(api.db, { credits: 100, creditsPerSecond: CPS });
  project = await dubbedProject(api, tenant, clip, { max_billable_seconds: 10, target_locales: ['es_es'] });
  billable = project.usage.billable_seconds;
}, 180_000);
afterAll(async () => {
  await worker.stop();
  await api.close();
  removeTempDir(dir);
});

it('the project under test is validated and charged for one language', () => {
  expect(project).toMatchObject({ status: 'completed', target_locales: ['es_es'], usage: { state: 'charged', billable_seconds: 4, charged_seconds: 4 } });
});

describe('a preview', () => {
  it("quotes new and existing locales at the project's billable seconds and rate, and writes nothing", async () => {
    const before = await additionRows(api, tenant.workspace.id);
    const quote = await postLanguages(api, tenant, project.id, { target_locales: ['es_es', 'ca_es', 'it_it'], max_billable_seconds: billable * 2 });
    expect(quote.status).toBe(200);
    expect(quote.body).toEqual({
      data: {
        addition: {
          preview_only: true,
          existing_locales: ['es_es'],
          new_locales: ['ca_es', 'it_it'],
          billable_seconds: billable * 2,
          credits: billable * 2 * CPS,
          max_billable_seconds: billable * 2,
          within_limit: true,
        },
      },
    });
    // One second under the quote: the same numbers, not within the limit.
    const tight = await postLanguages(api, tenant, project.id, { target_locales: ['ca_es', 'it_it'], max_billable_seconds: billable * 2 - 1, preview_only: true });
    expect(tight.body.data.addition).toMatchObject({ new_locales: ['ca_es', 'it_it'], billable_seconds: billable * 2, within_limit: false });
    // Only existing locales: nothing to pay.
    const nothing = await postLanguages(api, tenant, project.id, { target_locales: ['es_es'], max_billable_seconds: 1 });
    expect(nothing.body.data.addition).toMatchObject({ existing_locales: ['es_es'], new_locales: [], billable_seconds: 0, credits: 0, within_limit: true });
    // An Idempotency-Key on a preview is ignored: a preview records nothing.
    const keyed = await postLanguages(api, tenant, project.id, { target_locales: ['ca_es'], max_billable_seconds: billable }, randomUUID());
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('idempotent-replayed')).toBeNull();
    expect(keyed.body.data.addition).toMatchObject({ preview_only: true, new_locales: ['ca_es'], credits: billable * CPS });
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });
});

describe('a request that is not a preview', () => {
  it('over its max_billable_seconds answers 200 with the quote and charges, adds and records nothing', async () => {
    const before = await additionRows(api, tenant.workspace.id);
    const over = await postLanguages(api, tenant, project.id, { target_locales: ['ca_es'], max_billable_seconds: billable - 1, preview_only: false }, randomUUID());
    expect(over.status).toBe(200);
    expect(over.body.data.addition).toEqual({
      preview_only: false,
      existing_locales: [],
      new_locales: ['ca_es'],
      billable_seconds: billable,
      credits: billable * CPS,
      max_billable_seconds: billable - 1,
      within_limit: false,
      charged_now_seconds: 0,
    });
    const view = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}`, { headers: bearer(tenant.key) });
    expect(over.body.data.project).toEqual(view.body.data);
    expect(over.body.data.project).toMatchObject({ status: 'completed', target_locales: ['es_es'] });
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('that the credits cannot pay for is refused with 402 and writes nothing', async () => {
    const before = await additionRows(api, tenant.workspace.id);
    expect(before.balance).toEqual({ granted: 100, captured: billable * CPS, reserved: 0 });
    const refused = await postLanguages(api, tenant, project.id, { target_locales: ['ca_es', 'it_it'], max_billable_seconds: 100, preview_only: false }, randomUUID());
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ type: 'payment_required_error', code: 'insufficient_credits' });
    expect(refused.body.error.message).toContain(`costs ${billable * 2 * CPS} credits`);
    expect(refused.body.error.message).toContain(`${100 - billable * CPS} are available`);
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('without an Idempotency-Key is refused with 400 naming the header, writing nothing', async () => {
    const before = await additionRows(api, tenant.workspace.id);
    const res = await postLanguages(api, tenant, project.id, { target_locales: ['ca_es'], max_billable_seconds: billable, preview_only: false });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_missing', param: 'Idempotency-Key' });
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });
});

describe('bad input', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['target_locales missing', { max_billable_seconds: 10 }, 'missing_parameter', 'target_locales'],
    ['target_locales empty', { target_locales: [], max_billable_seconds: 10 }, 'invalid_parameter', 'target_locales'],
    ['target_locales repeated', { target_locales: ['ca_es', 'ca_es'], max_billable_seconds: 10 }, 'invalid_parameter', 'target_locales'],
    ['a locale the engines do not serve', { target_locales: ['ca_es', 'xx_yy'], max_billable_seconds: 10 }, 'unsupported_locale', 'target_locales[1]'],
    ['the source locale', { target_locales: ['en_us'], max_billable_seconds: 10 }, 'unsupported_locale', 'target_locales[0]'],
    ['max_billable_seconds missing', { target_locales: ['ca_es'] }, 'missing_parameter', 'max_billable_seconds'],
    ['max_billable_seconds zero', { target_locales: ['ca_es'], max_billable_seconds: 0 }, 'invalid_parameter', 'max_billable_seconds'],
    ['max_billable_seconds fractional', { target_locales: ['ca_es'], max_billable_seconds: 1.5 }, 'invalid_parameter', 'max_billable_seconds'],
    ['max_billable_seconds a string', { target_locales: ['ca_es'], max_billable_seconds: '10' }, 'invalid_parameter', 'max_billable_seconds'],
    ['preview_only not a boolean', { target_locales: ['ca_es'], max_billable_seconds: 10, preview_only: 'no' }, 'invalid_parameter', 'preview_only'],
    ['an unknown field', { target_locales: ['ca_es'], max_billable_seconds: 10, locales: ['ca_es'] }, 'unknown_parameter', 'locales'],
  ];

  it.each(cases)('%s: 400 naming the field, nothing written', async (_name, body, code, param) => {
    const before = await additionRows(api, tenant.workspace.id);
    for (const previewOnly of [undefined, false]) {
      const sent = previewOnly === undefined || 'preview_only' in body ? body : { ...body, preview_only: previewOnly };
      const res = await postLanguages(api, tenant, project.id, sent, randomUUID());
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    }
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('an unknown project is a 404 and a key without dubbing:write a 403, nothing written', async () => {
    const before = await additionRows(api, tenant.workspace.id);
    const unknown = await postLanguages(api, tenant, randomUUID(), { target_locales: ['ca_es'], max_billable_seconds: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', param: 'project_id' });
    const stranger = await createTenant(api.db, { credits: 1000 });
    expect((await postLanguages(api, stranger, project.id, { target_locales: ['ca_es'], max_billable_seconds: 10, preview_only: false }, randomUUID())).status).toBe(404);
    const reader = await createTenant(api.db, { permissions: ['dubbing:read'] });
    const denied = await postLanguages(api, reader, project.id, { target_locales: ['ca_es'], max_billable_seconds: 10 });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('permission_denied');
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });
});

describe('a project whose billable seconds are not known', () => {
  let other: TestTenant;
  beforeAll(async () => {
    other = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  });

  it('before validation: 409 project_not_ready, preview or not, nothing written', async () => {
    const waiting = (await createProject(api, other, projectBody())).body.data;
    expect(waiting.status).toBe('awaiting_upload');
    const before = await additionRows(api, other.workspace.id);
    for (const extra of [{}, { preview_only: false }]) {
      const res = await postLanguages(api, other, waiting.id, { target_locales: ['ca_es'], max_billable_seconds: 60, ...extra }, randomUUID());
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'project_not_ready' });
    }
    expect(await additionRows(api, other.workspace.id)).toEqual(before);
  });

  it('failed before any charge (over its ceiling): 409 project_not_billable, nothing written', async () => {
    const created = (await createProject(api, other, projectBody({ max_billable_seconds: 2, source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }))).body.data;
    expect((await uploadAndComplete(api, other, created, clip)).status).toBe(200);
    const failed = await waitForProjectView(api, other, created.id, 'project failed', (p) => p.status === 'failed');
    expect(failed.usage).toMatchObject({ state: 'limit_exceeded', billable_seconds: billable, charged_seconds: 0 });
    const before = await additionRows(api, other.workspace.id);
    for (const extra of [{}, { preview_only: false }]) {
      const res = await postLanguages(api, other, created.id, { target_locales: ['ca_es'], max_billable_seconds: 60, ...extra }, randomUUID());
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'project_not_billable' });
      expect(res.body.error.message).toContain('max_billable_seconds_exceeded');
    }
    expect(await additionRows(api, other.workspace.id)).toEqual(before);
  }, 90_000);
});
