/**
 * `@kiln/core/client`: the small runtime of the typed client Kiln's build writes (the `client`
 * option): `fetch`, a base URL, default headers, per-call `RequestInit`, and the encoders that
 * send each value the way the server reads it. No server code: a browser can import it.
 *
 * @module @kiln/core/client
 */
export {
  bindOperations,
  createCaller,
  type Answer,
  type Caller,
  type ClientOptions,
  type FetchFunction,
  type HeaderValues,
  type Operation,
  type ParameterPlace,
} from './create-caller.js';
export { readEvents, type EventFormat } from './event-stream-reader.js';
export { ClientError, type Failed, type Ok } from './client-result.js';
export { formDataOf, itemText, parameterTexts } from './encode-value.js';
