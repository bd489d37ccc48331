import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { runProcess } from '../../src/engines/run-process';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('GET /v1/dubbing/locales', () => {
  it('needs no key and lists only locales the installed engines serve', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/dubbing/locales');
    expect(res.status).toBe(200);
    const locales = res.body.data as any[];
    expect(locales.length).toBeGreaterThan(1);
    for (const entry of locales) {
      expect(entry.locale).toMatch(/^[a-z]{2,3}_[a-z]{2}$/);
      expect(entry.display_name).toMatch(/\w+ \(.+\)/);
    }
    // No worker runs in this file: the list comes from the last known one (test-api seeds it), and says so.
    expect(res.body.capabilities).toMatchObject({ source: 'last_known', live_workers: 0, as_of: expect.any(String) });
    expect(res.body.capabilities.age_seconds).toBeGreaterThanOrEqual(0);
    const english = locales.find((l) => l.locale === 'en_us');
    expect(english).toMatchObject({ usable_as_source: true, display_name: 'English (United States)' });

    // Cross-check against the engines themselves: every target's translation modes are installed.
    const modes = (await runProcess('apertium', ['-l'], { timeoutMs: 10_000 })).stdout.toString().split(/\s+/);
    const spanish = locales.find((l) => l.locale === 'es_es');
    // The best measured route first (src/engines/locale-catalog.ts): through Catalan where its pairs are installed.
    const throughCatalan = (target: string) => modes.includes('eng-cat') && modes.includes(`cat-${target}`);
    expect(spanish).toMatchObject({ usable_as_target: true, translation_pivot: throughCatalan('spa') ? 'ca' : null });
    expect(modes).toContain('eng-spa');
    const portuguese = locales.find((l) => l.locale === 'pt_pt');
    if (throughCatalan('por')) expect(portuguese).toMatchObject({ usable_as_target: true, translation_pivot: 'ca' });
    else if (modes.includes('es-pt')) expect(portuguese).toMatchObject({ usable_as_target: true, translation_pivot: 'es' });
    else expect(portuguese).toBeUndefined();
  });

  it('rejects parameters it does not take', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/dubbing/locales?limit=5');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_parameter', param: 'limit' });
  });
});
