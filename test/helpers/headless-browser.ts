import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

// Debian's Chromium (scripts/debian-test-packages.txt), driven by puppeteer-core, which brings no
// browser of its own. Headless, with its own profile, none of its background services, and
// anything beyond loopback sent to `proxyUrl` (an outbound recorder), so a page that reaches
// for the internet is caught rather than served.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium's own services (clock sync, component updates, sign-in), which it calls whatever
 * the page; flags cannot silence them all. Exact hosts only, so a page reaching for a CDN or a
 * font host (fonts.googleapis.com, …) is still caught.
 */
export const BROWSER_SERVICE_HOSTS = ['clients2.google.com', 'update.googleapis.com', 'accounts.google.com', 'redirector.gvt1.com'];

/** The outbound requests (an outbound recorder's `attempts`) that are not the browser's own services: the page's. */
export function pageAttempts(attempts: string[]): string[] {
  return attempts.filter((line) => {
    const target = line.split(' ')[1] ?? '';
    const host = target.includes('://') ? new URL(target).hostname : target.split(':')[0];
    return !BROWSER_SERVICE_HOSTS.includes(host ?? '');
  });
}

export function launchChromium(options: { profileDir: string; proxyUrl: string; width?: number; height?: number }): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: path.join(options.profileDir, 'profile'),
    defaultViewport: { width: options.width ?? 1200, height: options.height ?? 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
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
      // Sound plays into no device; the media clock runs all the same.
      '--mute-audio',
      `--proxy-server=${options.proxyUrl}`,
    ],
  });
}

/**
 * A new page with what a test asserts of it afterwards: the errors it threw or its content
 * security policy refused, and every URL it requested.
 */
export async function watchedPage(browser: Browser, stepTimeoutMs: number): Promise<{ page: Page; pageErrors: string[]; requested: string[] }> {
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) pageErrors.push(message.text());
  });
  page.on('request', (req) => requested.push(req.url()));
  page.setDefaultTimeout(stepTimeoutMs);
  return { page, pageErrors, requested };
}
