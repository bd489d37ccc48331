import { startFakeEngineServer, type FakeEngineServer } from './fake-engine-server';

// A local LibreTranslate: `GET /languages` and `POST /translate` (JSON, `q` a string or an array,
// `source`, `target`, `format`, `api_key`), with its error bodies (`{ "error": … }`). Its
// "translation" marks each text with the target code (`[es] Hello.`), so a test can tell text
// translated here from apertium's.

export interface TranslateCall {
  path: string;
  status: number;
  body: { q?: unknown; source?: unknown; target?: unknown; format?: unknown; api_key?: unknown } | null;
}

export interface FakeLibreTranslate extends FakeEngineServer<TranslateCall> {
  /** Language code → the codes it translates into. */
  pairs: Record<string, string[]>;
}

const NAMES: Record<string, string> = { en: 'English', de: 'German', es: 'Spanish', fr: 'French', it: 'Italian', pt: 'Portuguese', nl: 'Dutch' };

export async function startFakeLibreTranslate(pairs: Record<string, string[]>): Promise<FakeLibreTranslate> {
  const server = (await startFakeEngineServer<TranslateCall>('', async (path, request, self) => {
    const own = self as FakeLibreTranslate;
    if (request.method === 'GET' && path === '/languages') {
      return { call: { path, status: 0, body: null }, status: 200, body: Object.entries(own.pairs).map(([code, targets]) => ({ code, name: NAMES[code] ?? code, targets })) };
    }
    if (request.method !== 'POST' || path !== '/translate') return { call: { path, status: 0, body: null }, status: 404, body: { error: 'Not Found' } };
    const body = (await request.json().catch(() => null)) as TranslateCall['body'];
    const call: TranslateCall = { path, status: 0, body };
    if (self.requiredKey !== null && body?.api_key !== self.requiredKey) return { call, status: 403, body: { error: 'Invalid API key' } };
    if (!body || body.q === undefined) return { call, status: 400, body: { error: 'Invalid request: missing q parameter' } };
    const source = String(body.source);
    const target = String(body.target);
    if (!own.pairs[source]) return { call, status: 400, body: { error: `${source} is not supported` } };
    if (!own.pairs[source]!.includes(target)) return { call, status: 400, body: { error: `${target} is not supported` } };
    const mark = (text: string) => (text.trim() ? `[${target}] ${text}` : text);
    return { call, status: 200, body: { translatedText: Array.isArray(body.q) ? (body.q as string[]).map(mark) : mark(String(body.q)) } };
  })) as FakeLibreTranslate;
  server.pairs = pairs;
  return server;
}
