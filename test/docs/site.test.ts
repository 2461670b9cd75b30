// The documentation site, built as `npm run docs:build` builds it (offline: nothing here reaches
// past 127.0.0.1), then checked as a reader meets it: every link and heading anchor resolves, the
// sidebar lists every page, and three pages load in headless Chromium — the landing page, the
// diagnostics reference with every KILN code of the sources, and the local search finding the
// rate-limiting page for "rate limit".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { brokenLinks } from './support/site-links.js';
import { serveSite, type StaticSite } from './support/static-site.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const docs = join(root, 'docs');
const outDir = mkdtempSync(join(tmpdir(), 'kiln-docs-site-'));
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
let site: StaticSite | undefined;
let browser: Browser | undefined;

/** Every KILN code the sources define: the transformer's registry (`code: 101`) and every KILNnnn named in src/. */
function definedCodes(): string[] {
  const codes = new Set<string>();
  const registry = join(root, 'transformer', 'diagnostics');
  for (const file of readdirSync(registry)) {
    for (const match of readFileSync(join(registry, file), 'utf8').matchAll(/\bcode: (\d{3})\b/g)) codes.add(`KILN${match[1]}`);
  }
  const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  for (const file of sources) for (const match of readFileSync(join(root, 'src', file), 'utf8').matchAll(/KILN\d{3}/g)) codes.add(match[0]);
  return [...codes].sort();
}

/** The site's pages as the sidebar must link them: every Markdown file but the home page and the generated API. */
function pagePaths(): string[] {
  return readdirSync(docs, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.md') && !file.startsWith('.vitepress/') && !file.startsWith('api/') && file !== 'index.md')
    .map((file) => `/${file.replace(/\.md$/, '.html')}`)
    .sort();
}

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser!.newContext();
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${site!.origin}${path}`);
  return { page, errors };
}

test('npm run docs:build builds the site offline: the API reference from TypeDoc, then VitePress', async () => {
  const node = (script: string, args: string[]) =>
    promisify(execFile)(process.execPath, [join(root, 'node_modules', script), ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
  // The two steps of the docs:build script, the site written to a folder of this test's own.
  await node('typedoc/bin/typedoc', ['--options', 'docs/typedoc.json']);
  const { stdout } = await node('vitepress/bin/vitepress.js', ['build', 'docs', '--outDir', outDir]);
  assert.match(stdout, /build complete/);
  assert.ok(existsSync(join(outDir, 'index.html')));
  assert.ok(existsSync(join(outDir, 'reference', 'diagnostics.html')));
});

test('no page links to a file or a heading that does not exist', () => {
  assert.equal(brokenLinks(outDir), []);
});

test('the sidebar lists every page of docs/, each once', () => {
  const html = readFileSync(join(outDir, 'guide', 'getting-started.html'), 'utf8');
  const sidebar = html.slice(html.indexOf('class="VPSidebar'), html.indexOf('class="VPContent'));
  const links = [...sidebar.matchAll(/href="([^"#]+)"/g)].map((m) => m[1]!);
  const linked = new Set(links);
  assert.equal(
    links.filter((link, i) => links.indexOf(link) !== i),
    [],
    'a page the sidebar (docs/.vitepress/config.mts) links twice',
  );
  const pages = pagePaths();
  assert.ok(pages.length >= 20, `${pages.length} pages`);
  for (const page of pages) assert.ok(linked.has(page), `the sidebar (docs/.vitepress/config.mts) does not link ${page}`);
});

test('included files arrived: the rate-limit README in its page, its codes in the reference, the benchmark report', () => {
  const text = (path: string) => readFileSync(join(outDir, path), 'utf8');
  assert.match(text('guide/rate-limiting.html'), 'id="redisstore"');
  assert.match(text('reference/diagnostics.html'), 'KILN204');
  assert.match(text('guide/benchmarks.html'), 'id="kiln-against-its-targets"');
});

test('headless Chromium: the landing page renders the pitch and links to the guide', async () => {
  site = await serveSite(outDir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
  const { page, errors } = await open('/');
  await page.waitForSelector('.VPHero .name');
  assert.is((await page.textContent('.VPHero .name'))?.trim(), 'Kiln');
  assert.ok(await page.$('.VPHero a[href="/guide/getting-started.html"]'), 'a "Get started" action');
  assert.equal(errors, []);
});

test('headless Chromium: the diagnostics reference shows every KILN code of transformer/diagnostics/ and src/', async () => {
  const { page, errors } = await open('/reference/diagnostics.html');
  await page.waitForSelector('.vp-doc h1');
  const text = await page.innerText('.vp-doc');
  const codes = definedCodes();
  assert.ok(codes.length >= 50, `${codes.length} codes`);
  const missing = codes.filter((code) => !text.includes(code));
  assert.equal(missing, [], `not on the diagnostics page: ${missing.join(', ')}`);
  assert.equal(errors, []);
});

test('headless Chromium: the local search finds the rate-limiting page for "rate limit"', async () => {
  const { page, errors } = await open('/');
  await page.click('button.DocSearch-Button');
  await page.fill('#localsearch-input', 'rate limit');
  const hit = await page.waitForSelector('.results a[href*="/guide/rate-limiting.html"]', { timeout: 30_000 });
  assert.ok(await hit.isVisible());
  assert.equal(errors, []);
});

test.after(async () => {
  await browser?.close();
  await site?.close();
  rmSync(outDir, { recursive: true, force: true });
});

test.run();
