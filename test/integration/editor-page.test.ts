import { get } from 'node:http';
import { EDITOR_ASSET_NAMES } from '../../src/api/editor/editor-assets';
import { STORAGE_DRIVERS, storageEnv } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The editor page's files (docs/editing.md#the-editor), served by the API from web/editor: the
// same HTML at /editor and /editor/projects/{id}, its modules and stylesheet with their types,
// nothing else, and a policy that lets the page reach this server alone (and, for the audio,
// the storage driver's links).

/** A conditional GET without fetch, which marks such requests `Cache-Control: no-cache`. */
function conditionalGet(url: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'if-none-match': etag } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe.each(STORAGE_DRIVERS)('on the %s driver', (driver) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(storageEnv(driver));
  });
  afterAll(() => api.close());

  it('serves the same page at /editor and /editor/projects/{id}, under a self-only policy', async () => {
    const page = await request(api.baseUrl, 'GET', '/editor');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script type="module" src="/editor/main.js"></script>');
    expect(page.body).not.toMatch(/https?:\/\//);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    // The audio links' origin: this API on the local driver, the object store on s3.
    const mediaOrigin = driver === 'local' ? api.baseUrl : new URL(process.env.TEST_S3_ENDPOINT!).origin;
    expect(policy).toContain(`media-src 'self' ${mediaOrigin};`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    const project = await request(api.baseUrl, 'GET', '/editor/projects/5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15');
    expect(project.status).toBe(200);
    expect(project.body).toBe(page.body);
    expect(project.headers.get('content-security-policy')).toBe(policy);
    // The page holds no data: no key is asked for, and none is needed to load it.
    expect(project.headers.get('etag')).toBe(page.headers.get('etag'));
    expect(await conditionalGet(`${api.baseUrl}/editor`, page.headers.get('etag')!)).toBe(304);
  });

  it('serves each module and the stylesheet with its type, and nothing else from the folder or beyond', async () => {
    expect(EDITOR_ASSET_NAMES).toEqual(expect.arrayContaining(['main.js', 'editor.css', 'api-client.js', 'segment-table.js', 'regenerate-panel.js']));
    for (const name of EDITOR_ASSET_NAMES) {
      const file = await fetch(`${api.baseUrl}/editor/${name}`);
      expect([name, file.status, file.headers.get('content-type')]).toEqual([name, 200, name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8']);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('cache-control')).toBe('no-cache');
      const text = await file.text();
      expect(text.length).toBeGreaterThan(100);
      // No module loads anything from elsewhere.
      expect([name, text.match(/(?:from|import)\s*\(?\s*['"](?!\.\/)[^'"]+['"]/g)]).toEqual([name, null]);
      expect(await conditionalGet(`${api.baseUrl}/editor/${name}`, file.headers.get('etag')!)).toBe(304);
    }
    for (const probe of ['/editor/index.html', '/editor/..%2Fpackage.json', '/editor/nope.js', '/editor/__proto__']) {
      const res = await request(api.baseUrl, 'GET', probe);
      expect([probe, res.status]).toEqual([probe, 404]);
      expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'asset' });
    }
  });
});
