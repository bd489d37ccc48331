import { createTenant } from '../helpers/fixtures';
import type { TestApi } from '../helpers/test-api';
import { REVERSED_SRT, segmentPath, SRT, THREE, transcriptPath, transcriptsApiSuite } from '../helpers/transcripts-api';

// Reading and editing the words over HTTP (docs/editing.md#reading-and-editing): the source
// transcript (GET, PUT, PATCH a segment), on the real app and PostgreSQL. Completed projects are
// written straight to the tables, as the workflows leave them; no workflow runs here. Each
// language's lines, busy projects and tenancy are transcripts-api-lines-and-access.test.ts.

let api: TestApi;
const { call, sourceRows, lineRows, transcriptSource, newProject, completedProject } = transcriptsApiSuite((started) => (api = started));

describe('the source transcript', () => {
  it('GET before there is one: no source, no segments', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const got = await call(tenant, 'GET', transcriptPath(id));
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: { project_id: id, source: null, source_audio_url: null, segments: [] } });
    expect(await transcriptSource(id)).toBeNull();
  });

  it('PUT before the upload: the SubRip cues become the transcript (supplied), GET answers the same', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const put = await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content: SRT });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      project_id: id,
      source: 'supplied',
      segments: [
        { start_seconds: 1, end_seconds: 2, text: 'One.' },
        { start_seconds: 3, end_seconds: 4, text: 'Two.' },
        // SubRip's <i> is styling, not words (docs/editing.md#markup-in-a-script).
        { start_seconds: 5, end_seconds: 6.5, text: 'Three, in two\nlines.' },
      ],
    });
    const rows = await sourceRows(id);
    expect(rows.map((r) => [r.id, r.position, r.start_seconds, r.end_seconds, r.text])).toEqual(put.body.data.segments.map((s: any, i: number) => [s.id, i, s.start_seconds, s.end_seconds, s.text]));
    expect(rows.every((r) => /^seg_[a-z0-9]{12,16}$/.test(r.id))).toBe(true);
    expect(await transcriptSource(id)).toBe('supplied');
    expect((await call(tenant, 'GET', transcriptPath(id))).body).toEqual(put.body);

    // A second PUT (JSON under `segments` this time) replaces it whole, with new ids.
    const again = await call(tenant, 'PUT', transcriptPath(id), { format: 'json', content: JSON.stringify({ segments: [{ start_seconds: 0, end_seconds: 1.25, text: ' Only one. ' }] }) });
    expect(again.status).toBe(200);
    expect(again.body.data.segments).toEqual([
      { id: expect.stringMatching(/^seg_/), start_seconds: 0, end_seconds: 1.25, text: 'Only one.', speaker_id: expect.stringMatching(/^spk_/), speaker: 'Speaker 1' },
    ]);
    expect((await sourceRows(id)).map((r) => r.id)).toEqual([again.body.data.segments[0].id]);
  });

  it('a refused file names the cue and the field, and writes nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content: SRT });
    const before = await sourceRows(id);

    const refusals: [unknown, string][] = [
      [{ format: 'srt', content: REVERSED_SRT }, 'cue 3 (00:00:07.000 → 00:00:06.500) ends before it starts.'],
      [
        { format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne.\n\n00:00:01.500 --> 00:00:03.000\nTwo.\n' },
        'cue 2 (00:00:01.500 → 00:00:03.000) starts before cue 1 ends (00:00:02.000); cues must be in order and must not overlap.',
      ],
      [{ format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n' }, 'cue 1 (00:00:01.000 → 00:00:02.000) has no text.'],
      [{ format: 'vtt', content: '1\n00:00:01,000 --> 00:00:02,000\nOne.\n' }, 'not a WebVTT file: caption block 0: missing WEBVTT signature.'],
      [{ format: 'json', content: '[{"start_seconds": 0, "end_seconds": "1", "text": "x"}]' }, 'cue 1: end_seconds must be a number of seconds.'],
    ];
    for (const [body, message] of refusals) {
      const refused = await call(tenant, 'PUT', transcriptPath(id), body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_transcript', param: 'content', message });
    }
    expect(await sourceRows(id)).toEqual(before);
    expect(await transcriptSource(id)).toBe('supplied');

    // `speaker_prefixes` is SubRip's: with another format it is the field refused.
    const prefixed = await call(tenant, 'PUT', transcriptPath(id), { format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nANA: One.\n', speaker_prefixes: true });
    expect(prefixed.status).toBe(400);
    expect(prefixed.body.error).toMatchObject({ code: 'invalid_parameter', param: 'speaker_prefixes' });
    expect(await sourceRows(id)).toEqual(before);
  });

  it("PUT a SubRip with speaker_prefixes: a line's NAME: is not words; without it, it is", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const content = '1\n00:00:01,000 --> 00:00:02,500\nANA: Hello.\n\n2\n00:00:03,000 --> 00:00:04,500\nNote: bring water.\n';
    const read = await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content, speaker_prefixes: true });
    expect(read.status).toBe(200);
    expect(read.body.data.segments.map((s: { text: string }) => s.text)).toEqual(['Hello.', 'bring water.']);
    const kept = await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content, speaker_prefixes: false });
    expect(kept.body.data.segments.map((s: { text: string }) => s.text)).toEqual(['ANA: Hello.', 'Note: bring water.']);
  });

  it('PUT once completed: new segments, and every language line goes stale, edited ones included; cues must end within the source', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, lines } = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    await api.db.updateTable('language_segments').set({ status: 'edited', text: 'Mi línea.' }).where('id', '=', lines[1]!.id).execute();

    const beyond = await call(tenant, 'PUT', transcriptPath(id), { format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne.\n\n00:00:11.000 --> 00:00:13.000\nTwo.\n' });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatchObject({ code: 'invalid_transcript', param: 'content', message: 'cue 2 (00:00:11.000 → 00:00:13.000) ends after the source, which lasts 00:00:12.000.' });
    expect((await lineRows(id)).map((l) => l.status)).toEqual(['current', 'edited', 'current']);
    expect(await transcriptSource(id)).toBe('machine');

    const put = await call(tenant, 'PUT', transcriptPath(id), {
      format: 'vtt',
      content: 'WEBVTT\n\n00:00:01.000 --> 00:00:05.000\nA whole new script.\n\n00:00:06.000 --> 00:00:11.900\nIn two cues.\n',
    });
    expect(put.status).toBe(200);
    expect(put.body.data.source).toBe('supplied');
    expect((await sourceRows(id)).map((r) => r.text)).toEqual(['A whole new script.', 'In two cues.']);
    for (const locale of ['es_es', 'ca_es']) {
      const after = await lineRows(id, locale);
      expect(after.map((l) => l.status)).toEqual(['stale', 'stale', 'stale']);
      // Their source segments are gone: the next regeneration builds one line per new segment.
      expect(after.map((l) => l.source_segment_id)).toEqual([null, null, null]);
    }
    expect((await lineRows(id))[1]!.text).toBe('Mi línea.');
  });
});

describe('editing a source segment', () => {
  it("changes its text: its lines go stale except edited ones, the other segments' lines stay current, the transcript is edited", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments } = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    const catalan = await lineRows(id, 'ca_es');
    await api.db.updateTable('language_segments').set({ status: 'edited', text: 'La meva línia.' }).where('id', '=', catalan[1]!.id).execute();

    const patched = await call(tenant, 'PATCH', segmentPath(id, segments[1]!.id), { text: ' Today we cook brown rice. ' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ data: { id: segments[1]!.id, start_seconds: 3.5, end_seconds: 6, text: 'Today we cook brown rice.', speaker_id: segments[1]!.speaker_id, speaker: 'Speaker 1' } });
    expect((await sourceRows(id)).map((r) => [r.id, r.text])).toEqual([
      [segments[0]!.id, THREE[0]!.text],
      [segments[1]!.id, 'Today we cook brown rice.'],
      [segments[2]!.id, THREE[2]!.text],
    ]);
    expect(await transcriptSource(id)).toBe('edited');
    expect((await lineRows(id, 'es_es')).map((l) => l.status)).toEqual(['current', 'stale', 'current']);
    const catalanAfter = await lineRows(id, 'ca_es');
    expect(catalanAfter.map((l) => l.status)).toEqual(['current', 'edited', 'current']);
    expect(catalanAfter[1]!.text).toBe('La meva línia.');
    expect((await call(tenant, 'GET', transcriptPath(id))).body.data).toMatchObject({ source: 'edited', segments: [{}, { text: 'Today we cook brown rice.' }, {}] });
  });

  it('changes its timing: every line of it takes the new timing, the edited one stays edited', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    await api.db.updateTable('language_segments').set({ status: 'edited' }).where('id', '=', lines[2]!.id).execute();

    const patched = await call(tenant, 'PATCH', segmentPath(id, segments[2]!.id), { start_seconds: 6.5, end_seconds: 11 });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ id: segments[2]!.id, start_seconds: 6.5, end_seconds: 11, text: THREE[2]!.text, speaker_id: segments[2]!.speaker_id, speaker: 'Speaker 1' });
    const after = await lineRows(id);
    expect(after.map((l) => [l.status, l.start_seconds, l.end_seconds])).toEqual([
      ['current', 0.5, 3],
      ['current', 3.5, 6],
      ['edited', 6.5, 11],
    ]);

    // The same edit again changes nothing: no line goes stale, nothing is written.
    await api.db.updateTable('projects').set({ transcript_source: 'machine' }).where('id', '=', id).execute();
    const repeated = await call(tenant, 'PATCH', segmentPath(id, segments[2]!.id), { start_seconds: 6.5, end_seconds: 11, text: THREE[2]!.text });
    expect(repeated.body).toEqual(patched.body);
    expect(await lineRows(id)).toEqual(after);
    expect(await transcriptSource(id)).toBe('machine');
  });

  it('refuses timing that breaks the order, leaves the source, or ends before it starts, and blank text: 400 naming the field, nothing written', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments } = await completedProject(tenant);
    const middle = segmentPath(id, segments[1]!.id);
    const last = segmentPath(id, segments[2]!.id);
    const cases: [string, unknown, string, string, string][] = [
      [
        middle,
        { start_seconds: 2.5 },
        'invalid_parameter',
        'start_seconds',
        'start_seconds (00:00:02.500) is before the previous segment ends (00:00:03.000); segments must be in order and must not overlap.',
      ],
      [
        middle,
        { end_seconds: 7.25 },
        'invalid_parameter',
        'end_seconds',
        'end_seconds (00:00:07.250) is after the next segment starts (00:00:07.000); segments must be in order and must not overlap.',
      ],
      [middle, { start_seconds: 6.5 }, 'invalid_parameter', 'start_seconds', 'The segment would end (00:00:06.000) before it starts (00:00:06.500).'],
      [last, { end_seconds: 12.5 }, 'invalid_parameter', 'end_seconds', 'end_seconds (00:00:12.500) is after the source ends (00:00:12.000).'],
      [middle, { text: '   ' }, 'invalid_parameter', 'text', 'text must not be blank: a segment says something.'],
      [middle, {}, 'missing_parameter', 'text', 'Send text, start_seconds, end_seconds or speaker_id: what the segment becomes.'],
      [middle, { start_seconds: -1 }, 'invalid_parameter', 'start_seconds', expect.any(String) as unknown as string],
      [middle, { words: 'x' }, 'unknown_parameter', 'words', expect.any(String) as unknown as string],
    ];
    const sourceBefore = await sourceRows(id);
    const linesBefore = await lineRows(id);
    for (const [path, body, code, param, message] of cases) {
      const refused = await call(tenant, 'PATCH', path, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code, param, message });
    }
    expect(await sourceRows(id)).toEqual(sourceBefore);
    expect(await lineRows(id)).toEqual(linesBefore);
    expect(await transcriptSource(id)).toBe('machine');
  });

  it('works before the upload on a supplied transcript (no languages yet)', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const put = await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content: SRT });
    const first = put.body.data.segments[0];
    const patched = await call(tenant, 'PATCH', segmentPath(id, first.id), { text: 'Uno.', end_seconds: 2.75 });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ id: first.id, start_seconds: 1, end_seconds: 2.75, text: 'Uno.', speaker_id: first.speaker_id, speaker: 'Speaker 1' });
    expect(await transcriptSource(id)).toBe('edited');
  });
});
