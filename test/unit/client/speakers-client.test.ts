import { createDubbingClient, DubbingApiError, type FetchLike, type Speaker } from '../../../src/client';

// The speakers calls (docs/client.md#methods) on a scripted fetch: the method, path and body each
// sends, the speaker each returns, and the API's refusal thrown with its code and param.

const PROJECT = '0b0e5a4e-6f0c-4f57-9a1e-2f1d3c4b5a69';
const ana: Speaker = {
  id: 'spk_ab12cd34ef56gh78',
  label: 'Ana',
  position: 1,
  median_pitch_hz: 182.4,
  segments: 12,
  speech_seconds: 43.2,
  voices: { es_es: { voice: 'espeak:es+f3', chosen_by: 'machine', variant: false } },
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function scripted(answers: Response[]) {
  const requests: { method: string; url: string; body: unknown; idempotencyKey: string | null }[] = [];
  const fetch: FetchLike = async (request) => {
    const text = await request.text();
    requests.push({ method: request.method, url: request.url, body: text ? JSON.parse(text) : undefined, idempotencyKey: request.headers.get('idempotency-key') });
    return answers.shift()!;
  };
  return { client: createDubbingClient({ baseUrl: 'http://api.test', apiKey: 'dk_test_key', fetch, retry: { maxAttempts: 1 } }), requests };
}

it('lists, renames, gives a voice to and merges speakers', async () => {
  const ben = { ...ana, id: 'spk_zz98yy76xx54ww32', label: 'Ben', position: 2 };
  const { client, requests } = scripted([
    json(200, { data: [ana, ben] }),
    json(200, { data: { ...ana, label: 'Ana María' } }),
    json(200, { data: { ...ben, voices: { es_es: { voice: 'espeak:es+m3', chosen_by: 'customer', variant: false } } } }),
    json(200, { data: { ...ana, segments: 20 } }),
  ]);
  expect(await client.listSpeakers(PROJECT)).toEqual([ana, ben]);
  expect((await client.updateSpeaker(PROJECT, ana.id, { label: 'Ana María' })).label).toBe('Ana María');
  expect((await client.updateSpeaker(PROJECT, ben.id, { voices: { es_es: 'espeak:es+m3' } })).voices.es_es).toEqual({ voice: 'espeak:es+m3', chosen_by: 'customer', variant: false });
  expect((await client.mergeSpeakers(PROJECT, ben.id, ana.id)).segments).toBe(20);

  const base = `http://api.test/v1/dubbing/projects/${PROJECT}/speakers`;
  expect(requests.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
    { method: 'GET', url: base, body: undefined },
    { method: 'PATCH', url: `${base}/${ana.id}`, body: { label: 'Ana María' } },
    { method: 'PATCH', url: `${base}/${ben.id}`, body: { voices: { es_es: 'espeak:es+m3' } } },
    { method: 'POST', url: `${base}/${ben.id}/merge`, body: { into_speaker_id: ana.id } },
  ]);
  // The merge is a POST: it carries an Idempotency-Key, as every POST of the client does.
  expect(requests[3]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
});

it("throws the API's refusal: a label another speaker has", async () => {
  const { client } = scripted([json(409, { error: { type: 'conflict_error', code: 'speaker_label_taken', param: 'label', message: 'Another speaker is called Ben.', request_id: 'req_1' } })]);
  const refused = await client.updateSpeaker(PROJECT, ana.id, { label: 'Ben' }).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(DubbingApiError);
  expect(refused).toMatchObject({ status: 409, code: 'speaker_label_taken', param: 'label', message: 'Another speaker is called Ben.' });
});
