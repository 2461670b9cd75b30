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

export interface TryItOut {
  /** The token typed into Swagger UI's Authorize dialog; none leaves the page unauthorised. */
  readonly token?: string;
  /** The `data-path` of the operation to run (`/notes/{id}`). */
  readonly path: string;
  /** Values for the operation's parameters, by name, typed into "Try it out". */
  readonly parameters?: Readonly<Record<string, string>>;
}

export interface TriedOperation {
  /** The status Swagger UI shows for the live response. */
  readonly status: number;
  /** The `Authorization` header of the request the page sent to the server. */
  readonly authorization: string | null;
}

/**
 * Does what a person does on the docs page, once per run, each in a fresh browser context (no
 * authorisation carried over): Authorize (when the run has a token), open an operation, "Try it
 * out", fill its parameters, "Execute", and read the live response's status.
 */
export async function tryItOut(url: string, runs: readonly TryItOut[]): Promise<TriedOperation[]> {
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is needed: apt-get install chromium`);
  const browser = await chromium.launch({ executablePath, args });
  try {
    const results: TriedOperation[] = [];
    for (const run of runs) {
      const context = await browser.newContext();
      await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
      const page = await context.newPage();
      // The machine that runs the suites may be busy: waiting is not what is tested.
      page.setDefaultTimeout(90_000);
      let authorization: string | null = null;
      page.on('request', (request) => {
        if (request.resourceType() === 'fetch' && new URL(request.url()).pathname !== '/openapi.json')
          authorization = request.headers().authorization ?? null;
      });
      await page.goto(url);
      await page.waitForSelector('.opblock', { timeout: 90_000 });
      if (run.token !== undefined) {
        await page.click('button.authorize');
        await page.fill('.modal-ux .auth-container input', run.token);
        await page.click('.modal-ux .auth-btn-wrapper button.authorize');
        await page.click('.modal-ux button.btn-done');
      }
      const block = page.locator('.opblock', { has: page.locator(`.opblock-summary-path[data-path="${run.path}"]`) });
      await block.locator('.opblock-summary').first().click();
      await block.locator('button.try-out__btn').click();
      for (const [name, value] of Object.entries(run.parameters ?? {}))
        await block.locator(`tr[data-param-name="${name}"] input`).fill(value);
      await block.locator('button.execute').click();
      const status = block.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor();
      results.push({ status: Number((await status.textContent())?.trim()), authorization });
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}
