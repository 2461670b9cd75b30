// The document `createServer({ docs })` serves: the one the build wrote, checked against the
// server's route table (a stale build is refused at start-up), with what only the runtime knows
// merged in — the responses, headers and security schemes of the middlewares each route runs (e.g. a
// rate limiter's 429, a guard's bearer token).
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import type * as Url from 'node:url';
import type { CompiledRoute } from '../app/route-table.js';
import { type KilnError, kilnError } from '../kiln-error.js';
import type { DocsOptions } from './docs-options.js';
import { middlewareDescription, type MiddlewareOpenApi } from './middleware-description.js';
import { addSecurity } from './security-requirements.js';
import { optionalNodeBuiltin } from '../node-builtin.js';
import { openApiPath } from '../router/route-path.js';
import { fileSystemRefusal, onWorkers } from './file-system-refusal.js';
import type { ErrorsOption } from '../response/error-format.js';
import { asProblemResponse } from './problem-responses.js';

type Json = Record<string, any>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Why the document could not be read, with the file that was tried and the working directory a
 * relative path is read from: the usual cause is a server started from another folder.
 */
function unreadableDocument(document: string | URL, error: Error): KilnError {
  const cwd = (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.() ?? '(unknown)';
  const path = optionalNodeBuiltin<typeof Path>('node:path');
  const url = optionalNodeBuiltin<typeof Url>('node:url');
  const named = String(document);
  const resolved = document instanceof URL ? (url?.fileURLToPath(document) ?? named) : (path?.resolve(cwd, document) ?? named);
  if (error instanceof SyntaxError) return kilnError('KILN031', 'notJson', resolved, error.message);
  const reason = (error as { code?: string }).code ?? error.message;
  if (typeof document === 'string' && path !== undefined && !path.isAbsolute(document)) {
    return kilnError('KILN031', 'relativePath', resolved, reason, document, cwd, path.basename(document));
  }
  return kilnError('KILN031', 'unreadable', resolved, reason, cwd);
}

/** Reads and parses the document the option names. */
export function readDocument(document: DocsOptions['document']): Json {
  if (document === null || (typeof document !== 'string' && typeof document !== 'object')) {
    throw kilnError('KILN030', 'document');
  }
  let parsed: unknown = document;
  if (typeof document === 'string' || document instanceof URL) {
    const fs = optionalNodeBuiltin<typeof Fs>('node:fs');
    if (fs === undefined || onWorkers()) {
      throw fileSystemRefusal(kilnError('KILN031', 'noFileSystem', String(document)));
    }
    try {
      parsed = JSON.parse(fs.readFileSync(document, 'utf8'));
    } catch (error) {
      throw unreadableDocument(document, error as Error);
    }
  }
  const json = parsed as Json;
  if (typeof json?.openapi !== 'string' || !json.openapi.startsWith('3.1') || typeof json.paths !== 'object' || json.paths === null) {
    throw kilnError('KILN031', 'notOpenApi');
  }
  return json;
}

/**
 * A copy of the document for this server: every route must be described (else the build is older
 * than the code: KILN032), and each operation gains the responses and headers of its middlewares
 * (their error responses as problem details when the server answers errors so).
 */
export function servedDocument(document: Json, routes: readonly CompiledRoute[], errors: ErrorsOption = 'json'): Json {
  const served: Json = structuredClone(document);
  for (const route of routes) {
    // A WebSocket route has no operation: OpenAPI does not describe WebSockets.
    if (route.socket !== undefined) continue;
    const { method, path } = route.info;
    const operation: Json | undefined = served.paths[openApiPath(path)]?.[method.toLowerCase()];
    if (operation === undefined) {
      throw kilnError('KILN032', 'routeMissing', method, path, route.name);
    }
    const descriptions: MiddlewareOpenApi[] = [];
    // A middleware's own description of a status replaces what the build wrote for it (the build
    // knows a limiter may answer 429, the limiter knows its limits); the first middleware's wins.
    const described = new Set<string>();
    for (const middleware of route.middlewares) {
      const description = middlewareDescription(middleware);
      if (description === undefined) continue;
      descriptions.push(description);
      operation.responses ??= {};
      for (const [status, response] of Object.entries(description.responses ?? {})) {
        if (described.has(status)) continue;
        described.add(status);
        const copy = structuredClone(response) as Json;
        operation.responses[status] = errors === 'problem+json' ? asProblemResponse(status, copy) : copy;
      }
      for (const response of Object.values(operation.responses) as Json[]) {
        if (response.$ref !== undefined) continue;
        response.headers = { ...structuredClone(description.headers ?? {}), ...response.headers };
        if (Object.keys(response.headers).length === 0) delete response.headers;
      }
    }
    addSecurity(served, operation, descriptions, `${method} ${path}`);
    if (operation.responses !== undefined) {
      operation.responses = Object.fromEntries(Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return served;
}

/** Every operation of a document as `METHOD /path`, for messages and tests. */
export function operationsOf(document: Json): string[] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    methods.filter((method) => (item as Json)[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
}
