// `createServer({ docs })` in one call: the routes that serve the OpenAPI document and the docs
// page, compiled like any route (the router, HEAD and 405 handling apply) but running no middleware.
import type { CompiledRoute } from '../dispatch.js';
import { KilnError } from '../kiln-error.js';
import { joinRoutePath } from '../router/route-path.js';
import { docsPageAssets } from './docs-page.js';
import type { DocsOptions } from './docs-options.js';
import { readDocument, servedDocument } from './served-document.js';

/** The controller `app.routes` names for the docs routes. */
class KilnDocs {}

function checkedPath(value: unknown, name: string): string | undefined {
  if (value === undefined || value === false) return undefined;
  if (typeof value !== 'string' || !value.startsWith('/')) throw new KilnError('KILN030', `docs.${name} must be a path starting with '/', or false; got ${JSON.stringify(value)}`);
  return joinRoutePath('/', value);
}

/**
 * The routes of `docs` for a server whose route table is `routes`: the document (checked against
 * the routes and completed with their middlewares' descriptions) and, with `ui`, the page.
 */
export function docsRoutes(docs: DocsOptions, routes: readonly CompiledRoute[], report: CompiledRoute['report']): CompiledRoute[] {
  if (docs === null || typeof docs !== 'object') throw new KilnError('KILN030', 'docs must be an object: { document, openapi?, ui? }');
  const openapiPath = checkedPath(docs.openapi ?? '/openapi.json', 'openapi');
  const uiPath = checkedPath(docs.ui, 'ui');
  const document = servedDocument(readDocument(docs.document), routes);
  const text = JSON.stringify(document);

  const answers: { path: string; contentType: string; body: Uint8Array | string; cacheControl: string }[] = [];
  if (openapiPath !== undefined) answers.push({ path: openapiPath, contentType: 'application/json; charset=utf-8', body: text, cacheControl: 'no-cache' });
  if (uiPath !== undefined) {
    const title = `${(document.info as { title?: string } | undefined)?.title ?? 'API'} — API reference`;
    answers.push(...docsPageAssets(uiPath, openapiPath, document, title));
  }
  const taken = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.path));
  const instance = new KilnDocs();
  return answers.map((answer) => {
    if (taken.has(answer.path)) throw new KilnError('KILN034', `docs: GET ${answer.path} is already a route of the app; choose other docs.openapi / docs.ui paths`);
    const headers = { 'content-type': answer.contentType, 'cache-control': answer.cacheControl };
    return Object.freeze({
      method: 'GET', path: answer.path, name: `KilnDocs ${answer.path}`, controller: KilnDocs, handlerName: answer.path === openapiPath ? 'document' : answer.path === uiPath ? 'page' : 'asset',
      instance, handler: () => new Response(answer.body, { headers }), binder: undefined, status: undefined, strict: false, middlewares: [], report,
    } satisfies CompiledRoute);
  });
}
