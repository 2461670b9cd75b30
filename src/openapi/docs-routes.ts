// `createServer({ docs })` in one call: the routes that serve the OpenAPI document and the docs
// page, compiled like any route (the router, HEAD and 405 handling apply). Like every request they
// run the application middlewares; they have no controller or route middleware.
import type { CompiledRoute, RouteTable } from '../app/route-table.js';
import { kilnError } from '../kiln-error.js';
import { joinRoutePath } from '../router/route-path.js';
import type { RouteInfo } from '../router/route-info.js';
import { docsPageAssets, type DocsAsset } from './docs-page.js';
import type { DocsOptions } from './docs-options.js';
import { readDocument, servedDocument } from './served-document.js';
import type { ErrorsOption } from '../response/error-format.js';
import { assertErrorFormat, pathsAsProblems } from './problem-responses.js';

/** The controller `app.routes` names for the docs routes. */
class KilnDocs {}

/** True for the routes of `createServer({ docs })`: they send their own Content-Security-Policy. */
export function isDocsRoute(route: RouteInfo | undefined): boolean {
  return route !== undefined && route.controller === KilnDocs;
}

function checkedPath(value: unknown, name: string): string | undefined {
  if (value === undefined || value === false) return undefined;
  if (typeof value !== 'string' || !value.startsWith('/')) throw kilnError('KILN030', 'path', name, value);
  return joinRoutePath('/', value);
}

/**
 * The route table with the routes of `docs` added: the document (checked against the app's routes
 * and completed with their middlewares' descriptions) and, with `ui`, the page and its assets.
 * The document must describe errors in the server's `errors` format (KILN060).
 */
export function withDocsRoutes(
  table: RouteTable,
  docs: DocsOptions,
  extraPaths: Record<string, object> = {},
  errors: ErrorsOption = 'json',
): RouteTable {
  if (docs === null || typeof docs !== 'object') throw kilnError('KILN030', 'options');
  const openapiPath = checkedPath(docs.openapi ?? '/openapi.json', 'openapi');
  const uiPath = checkedPath(docs.ui, 'ui');
  const read = readDocument(docs.document);
  assertErrorFormat(read, errors);
  // Kiln's own routes the user asked to describe (health.openapi), beside the build's.
  const own = errors === 'problem+json' ? pathsAsProblems(extraPaths) : extraPaths;
  const document = servedDocument({ ...read, paths: { ...read.paths, ...own } }, table.routes, errors);
  const text = JSON.stringify(document);

  const answers: DocsAsset[] = [];
  if (openapiPath !== undefined)
    answers.push({ path: openapiPath, contentType: 'application/json; charset=utf-8', body: text, cacheControl: 'no-cache' });
  if (uiPath !== undefined) {
    const title = `${(document.info as { title?: string } | undefined)?.title ?? 'API'} — API reference`;
    answers.push(...docsPageAssets(uiPath, openapiPath, document, title));
  }
  const taken = new Set(table.routes.filter((r) => r.info.method === 'GET').map((r) => r.info.path));
  const instance = new KilnDocs();
  const routes = answers.map((answer): CompiledRoute => {
    if (taken.has(answer.path)) throw kilnError('KILN034', 'pathTaken', answer.path);
    // nosniff: a browser takes each file as the type it is sent with, never as a script or page it guesses.
    const headers: Record<string, string> = {
      'content-type': answer.contentType,
      'cache-control': answer.cacheControl,
      'x-content-type-options': 'nosniff',
    };
    if (answer.contentSecurityPolicy !== undefined) headers['content-security-policy'] = answer.contentSecurityPolicy;
    const handler = answer.path === openapiPath ? 'document' : answer.path === uiPath ? 'page' : 'asset';
    return Object.freeze({
      info: Object.freeze({ method: 'GET', path: answer.path, controller: KilnDocs, handler }),
      name: `KilnDocs ${answer.path}`,
      instance,
      handler: () => new Response(answer.body, { headers }),
      binder: undefined,
      serializer: undefined,
      status: undefined,
      strict: false,
      timeout: 0,
      middlewares: table.appChain,
    });
  });
  return { routes: [...table.routes, ...routes], appChain: table.appChain };
}
