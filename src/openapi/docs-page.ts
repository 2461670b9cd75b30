// The docs page: Swagger UI from the `swagger-ui-dist` package (an optional peer dependency the app
// installs when it enables `docs.ui`), served by Kiln itself — the page loads nothing from a CDN.
import type * as Fs from 'node:fs';
import type * as NodeModule from 'node:module';
import type * as Path from 'node:path';
import { kilnError } from '../kiln-error.js';
import { optionalNodeBuiltin } from '../node-builtin.js';
import { fileSystemRefusal, onWorkers } from './file-system-refusal.js';

/** One file of the page: its path under the page's, its type and its bytes. */
export interface DocsAsset {
  readonly path: string;
  readonly contentType: string;
  readonly body: Uint8Array | string;
  readonly cacheControl: string;
  /** The page's Content-Security-Policy; its scripts and styles have none of their own. */
  readonly contentSecurityPolicy?: string;
}

/**
 * What the docs page may load: its own scripts and styles from this server (no inline script —
 * the start-up script is a file of its own), the images Swagger UI's CSS embeds as data: URLs, and
 * requests to this server only (the document, and "Try it out" against the same origin). No
 * frames, plugins, forms or embedding in other sites.
 */
export const docsPagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The folder of the installed `swagger-ui-dist`, or KILN033 saying how to install it. */
function swaggerUiDist(): { dir: string; version: string; readFileSync: typeof Fs.readFileSync; join: typeof Path.join } {
  const fs = optionalNodeBuiltin<typeof Fs>('node:fs');
  const path = optionalNodeBuiltin<typeof Path>('node:path');
  const module = optionalNodeBuiltin<typeof NodeModule>('node:module');
  if (fs === undefined || path === undefined || module === undefined || onWorkers()) {
    throw fileSystemRefusal(kilnError('KILN033', 'noFileSystem'));
  }
  try {
    const manifest = module.createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
    const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
    return { dir: path.dirname(manifest), version, readFileSync: fs.readFileSync, join: path.join };
  } catch {
    throw kilnError('KILN033', 'notInstalled');
  }
}

/**
 * The page at `uiPath` and its assets. `documentUrl` is where the page fetches the document; with
 * `undefined` the document is embedded in the page's script instead.
 */
export function docsPageAssets(uiPath: string, documentUrl: string | undefined, document: object, title: string): DocsAsset[] {
  const { dir, version, readFileSync, join } = swaggerUiDist();
  const base = uiPath === '/' ? '' : uiPath;
  const immutable = 'public, max-age=86400';
  const source =
    documentUrl === undefined ? `spec: ${JSON.stringify(document).replace(/</g, '\\u003c')}` : `url: ${JSON.stringify(documentUrl)}`;
  const init =
    '// Kiln docs page: Swagger UI on the document this server serves. validatorUrl: null keeps it offline.\n' +
    `window.ui = SwaggerUIBundle({ ${source}, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis] });\n`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${base}/swagger-ui.css?v=${version}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js?v=${version}"></script>
<script src="${base}/kiln-docs.js"></script>
</body>
</html>
`;
  return [
    { path: uiPath, contentType: 'text/html; charset=utf-8', body: html, cacheControl: 'no-cache', contentSecurityPolicy: docsPagePolicy },
    {
      path: `${base}/swagger-ui.css`,
      contentType: 'text/css; charset=utf-8',
      body: readFileSync(join(dir, 'swagger-ui.css')),
      cacheControl: immutable,
    },
    {
      path: `${base}/swagger-ui-bundle.js`,
      contentType: 'text/javascript; charset=utf-8',
      body: readFileSync(join(dir, 'swagger-ui-bundle.js')),
      cacheControl: immutable,
    },
    { path: `${base}/kiln-docs.js`, contentType: 'text/javascript; charset=utf-8', body: init, cacheControl: 'no-cache' },
  ];
}
