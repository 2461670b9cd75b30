// The example as a Cloudflare Worker (workerd): the runtime listens and calls `fetch`. Bundled by
// `npm run bundle` into dist-bundle/worker.mjs; the OpenAPI document the tspc build wrote is
// bundled in, since a Worker has no file system to read it from (and no docs page: Swagger UI's
// files would be static assets there).
import { createApp } from '../src/app.js';
import document from '../openapi.json' with { type: 'json' };

const app = createApp({ document, openapi: '/openapi.json' });

export default { fetch: app.fetch };
