// Debian's headless Chromium, driven by playwright-core, with the network cut to everything but
// 127.0.0.1: what a docs page renders when it can reach nothing but the Kiln server.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const executablePath = '/usr/bin/chromium';
const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RenderedOperation {
  readonly method: string;
  readonly path: string;
  readonly summary: string;
}

export interface RenderedPage {
  readonly title: string;
  readonly operations: readonly RenderedOperation[];
  /** Requests the page tried to make outside 127.0.0.1 (aborted). */
  readonly blocked: readonly string[];
  readonly errors: readonly string[];
  /** The Content-Security-Policy the page was served with, if any. */
  readonly policy: string | undefined;
  /** What that policy refused on the page (`directive blocked-URI`). */
  readonly violations: readonly string[];
}

/** Loads `url` and waits until Swagger UI shows `expected` operations (its `.opblock` rows). */
export async function renderDocsPage(url: string, expected: number): Promise<RenderedPage> {
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is needed: apt-get install chromium`);
  const browser = await chromium.launch({ executablePath, args });
  try {
    const context = await browser.newContext();
    const blocked: string[] = [];
    await context.route('**/*', (route) => {
      if (new URL(route.request().url()).hostname === '127.0.0.1') return route.continue();
      blocked.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(
      "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
    );
    const response = await page.goto(url);
    const policy = response?.headers()['content-security-policy'];
    // Run in the page (a string: this project is compiled without the DOM library).
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${expected}`, undefined, { timeout: 90_000 });
    const operations = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        summary: block.querySelector('.opblock-summary-description')?.textContent?.trim() ?? '',
      })),
    );
    const violations = (await page.evaluate('window.__violations')) as string[];
    return { title: await page.title(), operations, blocked, errors, policy, violations };
  } finally {
    await browser.close();
  }
}
