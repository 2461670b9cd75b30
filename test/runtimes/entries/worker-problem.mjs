// workerd: the runtime listens and calls the module's fetch; the app is app.fetch, answering errors as problem details.
import { createConformanceApp } from '../../../build/test/runtimes/conformance-app/app.js';
import document from '../../../build/runtimes-conformance/openapi.json' with { type: 'json' };

const app = createConformanceApp(true, document, 'problem+json');
export default { fetch: app.fetch };
