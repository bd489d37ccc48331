import { Readable } from 'node:stream';
import { issueApiKey } from '../../src/auth/issue-api-key';
import { importMeetings } from '../../src/cli/import-meetings';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { request, type TestApi } from '../helpers/test-api';
import { putPart } from '../helpers/upload-client';
import type { Hints } from './schema-arbitraries';

// The real objects the fuzzer aims at: a tenant with credits and a project awaiting upload, a
// personal workspace with a meeting (the notes routes), and another tenant whose ids must be
// as unknown to the first as ids that never existed.

export interface FuzzWorld {
  api: TestApi;
  tenant: TestTenant;
  /** The tenant's key with `dubbing:read` only: writes are a 403. */
  readOnlyKey: string;
  /** A personal key in a personal workspace, holding `notes:read`. */
  notes: TestTenant;
  other: TestTenant;
  /** Every workspace whose rows a refused request must leave alone. */
  workspaceIds: string[];
  /** Raw (already URL-encoded) path parameter values that name real objects, by parameter name. */
  pathValues: Record<string, string[]>;
  /** Plausible field values by property name, mixed into generated bodies and queries. */
  hints: Hints;
}

const MEETING_ID = '6f1c9a52-3c1e-4b7a-9d54-0a5e2f0c7b11';

export async function buildFuzzWorld(api: TestApi): Promise<FuzzWorld> {
  // Enough credits that valid creates never run out mid-run (each holds up to 86,400 s × 20 locales).
  const tenant = await createTenant(api.db, { credits: 1_000_000_000_000 });
  const notes = await createTenant(api.db, { workspaceKind: 'personal', keyKind: 'personal', credits: 1_000_000 });
  const other = await createTenant(api.db, { credits: 1_000_000 });
  const { key: readOnlyKey } = await issueApiKey(api.db, { workspaceId: tenant.workspace.id, kind: 'project', userId: null, name: 'fuzz read-only', permissions: ['dubbing:read'] });

  const own = await createProject(api, tenant, projectBody({ external_id: 'fuzz-own', target_locales: ['es_es', 'ca_es'] }));
  const second = await createProject(api, tenant, projectBody({ name: 'Second' }));
  const foreign = await createProject(api, other, projectBody({ external_id: 'fuzz-foreign' }));
  for (const res of [own, second, foreign]) if (res.status !== 201) throw new Error(`fuzz world: create answered ${res.status} ${JSON.stringify(res.body)}`);
  const ownProject = own.body.data;
  const foreignProject = foreign.body.data;
  await importMeetings(api.db, notes.user.id, [{ id: MEETING_ID, name: 'Fuzz meeting', started_at: 1_700_000_000, ended_at: 1_700_000_600, duration_seconds: 600, updated_at: 1_700_000_600 }]);

  // Glossaries (docs/glossaries.md): one of the tenant's with two versions, and the other tenant's.
  const glossary = (body: unknown, owner: TestTenant) => request(api.baseUrl, 'POST', '/v1/glossaries', { headers: { ...bearer(owner.key), 'idempotency-key': `fuzz-${owner.workspace.id}` }, body });
  const ownGlossary = await glossary({ name: 'Fuzz glossary', source_locale: 'en_us', entries: [{ term: 'Rice Cooker Pro', keep: true }] }, tenant);
  const foreignGlossary = await glossary({ name: 'Foreign glossary', source_locale: 'en_us', entries: [{ term: 'wok', keep: true }] }, other);
  for (const res of [ownGlossary, foreignGlossary]) if (res.status !== 201) throw new Error(`fuzz world: glossary create answered ${res.status} ${JSON.stringify(res.body)}`);
  await request(api.baseUrl, 'PUT', `/v1/glossaries/${ownGlossary.body.data.id}`, { headers: bearer(tenant.key), body: { entries: [{ term: 'rice', translations: { es_es: 'arroz' } }] } });
  const glossaryIds: string[] = [ownGlossary.body.data.id, foreignGlossary.body.data.id];

  const locales = ((await request(api.baseUrl, 'GET', '/v1/dubbing/locales')).body.data as { locale: string }[]).map((l) => l.locale);
  const page = await request(api.baseUrl, 'GET', '/v1/dubbing/projects?limit=1', { headers: bearer(tenant.key) });
  const cursor: string = page.body.page.next_cursor;
  const foreignPage = await request(api.baseUrl, 'GET', '/v1/dubbing/projects?limit=1', { headers: bearer(other.key) });
  const uploadId: string = ownProject.transfer.upload_id;
  const partPath = new URL(ownProject.transfer.parts[0].url).pathname;
  // The part is in but the upload not completed: a well-formed complete can succeed (200) and
  // move the project on, so later requests meet both states.
  const part = await putPart(ownProject.transfer.parts[0].url, Buffer.alloc(1000, 7) /* projectBody: size_bytes 1000, one part */);
  if (part.status !== 200) throw new Error(`fuzz world: part upload answered ${part.status}`);
  // A stored file, so a genuinely signed download URL can find something (200).
  const fileKey = 'fuzz-world/sample.png';
  await api.blobStore.put(fileKey, Readable.from([Buffer.from('not really a png')]));

  return {
    api,
    tenant,
    readOnlyKey,
    notes,
    other,
    workspaceIds: [tenant.workspace.id, notes.workspace.id, other.workspace.id],
    pathValues: {
      project_id: [ownProject.id, ownProject.id.toUpperCase(), second.body.data.id, foreignProject.id, '00000000-0000-4000-8000-000000000000'],
      upload_id: [uploadId, foreignProject.transfer.upload_id, partPath.split('/')[3]!],
      part_number: ['1', '2', '0', '01', '10001'],
      // The project's own targets, one it lacks, and near-misses.
      locale: ['es_es', 'ca_es', 'pt_pt', 'ES_ES', 'es-ES'],
      glossary_id: [...glossaryIds, 'gls_doesnotexist00', 'GLS_X', 'gls_%2F..'],
      meeting_id: [MEETING_ID, MEETING_ID.toUpperCase(), '00000000-0000-4000-8000-000000000000'],
      key: [fileKey, `uploads/${uploadId}/part-1`, 'thumbnails/x.png', 'a.mp3', 'projects%2F..%2F..%2Fsecret'],
    },
    hints: {
      source_locale: locales,
      target_locales: locales,
      locale: [...locales, 'EN_US', 'en-US'],
      name: ['Fuzz project', 'Ünïcødé 🎬', 'مرحبا'],
      external_id: ['fuzz-own', 'fuzz-foreign', 'ext-1'],
      file_name: ['clip.mp4', 'my talk (final).mov', 'ünï.mkv', '.hidden'],
      size_bytes: [1, 1000, 8 * 1024 * 1024, 5 * 1024 ** 3, 5 * 1024 ** 3 + 1, 2 ** 53 - 1],
      url: ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://example.com/video.mp4', 'file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:1/'],
      cursor: [cursor, cursor.slice(0, -2), `${cursor}x`, foreignPage.body.page.next_cursor ?? cursor, 'eyJzZXEiOjF9', Buffer.from('{"seq":1,"workspaceId":"x"}').toString('base64url')],
      youtube_video_id: ['dQw4w9WgXcQ', 'short'],
      channel_id: ['UC_x5XG1OV2P6uZZ5FSM9Ttw', 'UC'],
      etag: [part.etag!, '9e107d9d372bb6826bd81d3542a419d6'],
      part_number: [1, 2],
      max_billable_seconds: [1, 60, 600],
      id: [...glossaryIds, 'gls_doesnotexist00'],
      term: ['Rice Cooker Pro', 'rice', 'RICE', ' C++ '],
      version: [1, 2, 3],
    },
  };
}
