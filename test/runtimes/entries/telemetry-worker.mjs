// workerd: the traced app (entries/traced-books-app.mjs) as entries/telemetry.mjs serves it on the
// listening runtimes, bundled by esbuild (platform browser: the SDK's browser builds) and served as
// a Worker's `fetch`. The context manager is a few lines over `AsyncLocalStorage`, which workerd
// gives with nodejs_compat (the SDK's own context-async-hooks package is CommonJS for Node).
import * as api from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracedBooksApp } from './traced-books-app.mjs';

/** OpenTelemetry's ContextManager over AsyncLocalStorage. */
class AsyncLocalStorageContext {
  #storage = new AsyncLocalStorage();
  active() {
    return this.#storage.getStore() ?? api.ROOT_CONTEXT;
  }
  with(context, fn, thisArg, ...args) {
    return this.#storage.run(context, () => fn.call(thisArg, ...args));
  }
  bind(context, target) {
    return typeof target === 'function' ? (...args) => this.with(context, target, undefined, ...args) : target;
  }
  enable() {
    return this;
  }
  disable() {
    this.#storage.disable();
    return this;
  }
}

const app = tracedBooksApp(new AsyncLocalStorageContext());
export default { fetch: app.fetch };
