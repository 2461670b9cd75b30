/**
 * `createServer({ docs })`: serve the OpenAPI document the build wrote, and a docs page.
 *
 * @example
 * ```ts
 * createServer({
 *   controllers,
 *   docs: { document: 'openapi.json', openapi: '/openapi.json', ui: '/docs' },
 * });
 * ```
 */
export interface DocsOptions {
  /**
   * The OpenAPI document written by the build (the transformer's `openapi.output`): a path
   * (relative to the working directory) or `file:` URL to read at start-up, or the parsed document itself.
   */
  document: string | URL | object;
  /** Where the document is served as JSON. Default `'/openapi.json'`; `false` serves only the page. */
  openapi?: string | false;
  /**
   * Where the docs page (Swagger UI, served from the `swagger-ui-dist` package, no CDN) is served,
   * e.g. `'/docs'`. Default: no page. Needs `npm install swagger-ui-dist`.
   */
  ui?: string | false;
}
