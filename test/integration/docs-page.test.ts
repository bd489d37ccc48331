import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get } from 'node:http';
import path from 'node:path';
import { runProcess } from '../../src/engines/run-process';
import { CHROMIUM, pageAttempts } from '../helpers/headless-browser';
import { startOutboundRecorder, type OutboundRecorder } from '../helpers/outbound-recorder';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// GET /docs in a real headless browser (Debian's Chromium, scripts/debian-test-packages.txt):
// the page renders the project-create operation from /v1/openapi.json, with every file served
// by this API and nothing fetched from anywhere else, and a screenshot of it is a real image.

const BROWSER_TIMEOUT_MS = 90_000;

/** A conditional GET without fetch, which marks such requests `Cache-Control: no-cache`. */
function conditionalGet(url: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'if-none-match': etag } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

let api: TestApi;
let outbound: OutboundRecorder;
let dir: string;

beforeAll(async () => {
  api = await startTestApi();
  outbound = await startOutboundRecorder();
  dir = mkdtempSync(path.join(tmpdir(), 'docs-page-'));
});

afterAll(async () => {
  await outbound.close();
  await api.close();
  // KEEP_DOCS_SCREENSHOT=1 leaves .test-tmp/docs.png to look at.
  if (process.env.KEEP_DOCS_SCREENSHOT) copyFileSync(path.join(dir, 'docs.png'), path.resolve(__dirname, '..', '..', '.test-tmp', 'docs.png'));
  rmSync(dir, { recursive: true, force: true });
});

/** Headless Chromium with its own profile; anything beyond loopback goes to the recorder. */
function chromium(args: string[]) {
  return runProcess(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      // The browser's own background traffic (updates, sign-in, metrics), which is not the page's.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
      '--disable-default-apps',
      '--disable-domain-reliability',
      '--disable-client-side-phishing-detection',
      '--disable-breakpad',
      '--metrics-recording-only',
      '--no-pings',
      '--no-service-autorun',
      '--password-store=basic',
      '--use-mock-keychain',
      '--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,SigninInterceptBubble',
      `--user-data-dir=${path.join(dir, 'profile')}`,
      `--proxy-server=${outbound.url}`,
      '--virtual-time-budget=15000',
      ...args,
    ],
    { timeoutMs: BROWSER_TIMEOUT_MS },
  );
}

describe('GET /docs', () => {
  it(
    'would notice a page that reaches beyond this machine',
    async () => {
      // The check below is only as good as the recorder: a page with one outside image trips it.
      const before = outbound.attempts.length;
      await chromium(['--dump-dom', 'data:text/html,<img src="http://cdn.example.test/logo.png">']);
      expect(pageAttempts(outbound.attempts.slice(before))).toEqual([expect.stringContaining('cdn.example.test')]);
    },
    BROWSER_TIMEOUT_MS + 10_000,
  );

  it('serves the page and its renderer from this server, with a policy that forbids anything else', async () => {
    const page = await request(api.baseUrl, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${api.baseUrl}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
    expect(await conditionalGet(`${api.baseUrl}/docs/swagger-ui-bundle.js`, bundle.headers.get('etag')!)).toBe(304);
    const css = await fetch(`${api.baseUrl}/docs/swagger-ui.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    // Only the renderer's own files: no path reaches into node_modules.
    const probe = await request(api.baseUrl, 'GET', '/docs/..%2Fpackage.json');
    expect(probe.status).toBe(404);
    expect(probe.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'asset' });
  });

  it(
    'renders the project-create operation in headless Chromium, offline',
    async () => {
      const before = outbound.attempts.length;
      const { stdout } = await chromium(['--dump-dom', `${api.baseUrl}/docs`]);
      const dom = stdout.toString('utf8');
      // Rendered by Swagger UI from the document, not present in the page's HTML.
      expect(dom).toContain('Create a dubbing project');
      expect(dom).toMatch(/data-path="\/v1\/dubbing\/projects"/);
      expect(dom).toContain('opblock-post');
      expect(dom).toContain('Dubbing API');
      // Everything the page needed came from this server...
      for (const file of ['GET /docs', 'GET /docs/swagger-ui.css', 'GET /docs/swagger-ui-bundle.js', 'GET /docs/docs-init.js', 'GET /v1/openapi.json']) {
        expect(api.requests).toContain(file);
      }
      // ...and nothing the page asked for tried to leave the machine.
      expect(pageAttempts(outbound.attempts.slice(before))).toEqual([]);
    },
    BROWSER_TIMEOUT_MS + 10_000,
  );

  it(
    'takes a screenshot that is a real 1280-pixel-wide PNG',
    async () => {
      const file = path.join(dir, 'docs.png');
      const before = outbound.attempts.length;
      await chromium([`--screenshot=${file}`, '--window-size=1280,2000', '--hide-scrollbars', `${api.baseUrl}/docs`]);
      expect(existsSync(file)).toBe(true);
      const png = readFileSync(file);
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.readUInt32BE(16)).toBe(1280); // IHDR width
      expect(png.readUInt32BE(20)).toBe(2000); // IHDR height
      // A blank page compresses to almost nothing; a rendered reference does not.
      expect(statSync(file).size).toBeGreaterThan(40_000);
      expect(pageAttempts(outbound.attempts.slice(before))).toEqual([]);
    },
    BROWSER_TIMEOUT_MS + 10_000,
  );
});
