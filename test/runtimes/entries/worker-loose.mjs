// workerd: the runtime listens and calls the module's fetch; the app is app.fetch.
import { createConformanceApp } from '../../../build/test/runtimes/conformance-app/app.js';
import document from '../../../build/runtimes-conformance/openapi.json' with { type: 'json' };

const app = createConformanceApp(false, document);
export default { fetch: app.fetch };
