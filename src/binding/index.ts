// What generated binders import ('kiln/binding'). Not for application code.
export { compiledBinder, type Binder } from '../binder.js';
export { BodyParseError } from '../request/body-parser.js';
export { HttpError } from '../http-error.js';
