import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { sourceKeys } from '../../src/shared/source-keys';
import { bearer, createTenant } from '../helpers/fixtures';
import { completedProjectWithSegments, LOCALE, regenerationRows, updateLine } from '../helpers/regenerations';
import { STORAGE_DRIVERS, storageEnv } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The audio the editor plays (docs/editing.md#the-editor), on both storage drivers: GET
// …/transcript signs a link to the source's speech, GET …/languages/{locale}/segments one to each
// line's clip, and both links answer a Range request with only those bytes (206), so a player
// can start a segment in the middle of a long source without fetching what lies before it.

const CUES: [number, number, string][] = [
  [0.5, 3, 'Hello everyone.'],
  [3.5, 6, 'Today we cook rice.'],
  [6.5, 9, 'Enjoy.'],
];

describe.each(STORAGE_DRIVERS)('on the %s driver', (driver) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(storageEnv(driver));
  });
  afterAll(() => api.close());

  /** The URL as the page uses it: straight from the browser, no API key. */
  const fetchRange = (url: string, range?: string) => fetch(url, { headers: range ? { range } : {} });

  it('signs the source speech and each clip; the links serve byte ranges; reading writes nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 1000 });
    const project = await completedProjectWithSegments(api.db, tenant, { cues: CUES, creditsPerSecond: 10 });
    const speech = randomBytes(96_000);
    const clips = [randomBytes(5000), randomBytes(7000)];
    await api.blobStore.put(sourceKeys.speech(project.id), Readable.from([speech]));
    for (const [i, clip] of clips.entries()) await api.blobStore.put(`clips/${project.lines[i]}.wav`, Readable.from([clip]));
    // The third line plays no clip (a line the dub left silent).
    await updateLine(api.db, project.lines[2]!, { clip_key: null });
    const before = await regenerationRows(api, tenant.workspace.id);

    const transcript = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}/transcript`, { headers: bearer(tenant.key) });
    expect(transcript.status).toBe(200);
    const audioUrl = new URL(transcript.body.data.source_audio_url);
    // Local: the API's own signed file route; s3: a presigned URL of the store itself.
    if (driver === 'local') expect(audioUrl.pathname).toBe(`/v1/files/${sourceKeys.speech(project.id)}`);
    else expect(audioUrl.origin).toBe(new URL(process.env.TEST_S3_ENDPOINT!).origin);

    const whole = await fetchRange(audioUrl.toString());
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(speech);

    // A player seeking to a segment: only those bytes.
    const middle = await fetchRange(audioUrl.toString(), 'bytes=32000-63999');
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 32000-63999/${speech.length}`);
    expect(middle.headers.get('content-length')).toBe('32000');
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(speech.subarray(32000, 64000));
    const open = await fetchRange(audioUrl.toString(), 'bytes=95000-');
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 95000-95999/${speech.length}`);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(speech.subarray(95000));
    const suffix = await fetchRange(audioUrl.toString(), 'bytes=-10');
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(speech.subarray(-10));
    const past = await fetchRange(audioUrl.toString(), `bytes=${speech.length}-`);
    expect(past.status).toBe(416);
    if (driver === 'local') {
      expect(past.headers.get('content-range')).toBe(`bytes */${speech.length}`);
      expect(((await past.json()) as { error: unknown }).error).toMatchObject({ type: 'invalid_request_error', code: 'range_not_satisfiable', param: 'Range' });
    }

    const lines = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}/languages/${LOCALE}/segments`, { headers: bearer(tenant.key) });
    expect(lines.status).toBe(200);
    const listed = lines.body.data.segments as { id: string; clip_url: string | null }[];
    expect(listed.map((l) => l.id)).toEqual(project.lines);
    expect(listed[2]!.clip_url).toBeNull();
    for (const [i, clip] of clips.entries()) {
      const full = await fetchRange(listed[i]!.clip_url!);
      expect([i, full.status, full.headers.get('content-type')]).toEqual([i, 200, 'audio/wav']);
      expect(Buffer.from(await full.arrayBuffer())).toEqual(clip);
      const head = await fetchRange(listed[i]!.clip_url!, 'bytes=0-43');
      expect(head.status).toBe(206);
      expect(Buffer.from(await head.arrayBuffer())).toEqual(clip.subarray(0, 44));
    }

    // Reading and listening change nothing.
    expect(await regenerationRows(api, tenant.workspace.id)).toEqual(before);
  });

  it('has no source audio while there is no recognized speech (a supplied transcript, or before recognition)', async () => {
    const tenant = await createTenant(api.db, { credits: 1000 });
    const project = await completedProjectWithSegments(api.db, tenant, { cues: CUES, creditsPerSecond: 10 });
    const transcript = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}/transcript`, { headers: bearer(tenant.key) });
    expect(transcript.status).toBe(200);
    expect(transcript.body.data).toMatchObject({ source_audio_url: null, segments: CUES.map(([start_seconds, end_seconds, text]) => ({ start_seconds, end_seconds, text })) });
  });
});
