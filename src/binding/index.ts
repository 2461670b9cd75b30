// What generated binders import ('@kiln/core/binding'). Not for application code: @kiln/core/transformer
// writes one straight-line binder per route that calls these small, separately tested helpers.
export { compiledBinder } from '../decorators/compiled-binder.js';
export { compiledSerializer } from '../decorators/compiled-serializer.js';
export { compiledSocket } from '../decorators/compiled-socket.js';
export type { SocketCodec } from '../websocket/socket-codec.js';
export type { Binder } from '../decorators/binder.js';
export { injectionPlan } from '../injection/decorators.js';
export type { DependencyPlan } from '../injection/dependency.js';
export { noParameters } from './no-parameters.js';
export {
  projectingSerializer,
  assertingSerializer,
  type Serializer,
  type ShapeRow,
  type ProjectorKit,
  type Projector,
} from '../response/serializer.js';
export type { SseData } from '../sse/sse-event.js';
export { BodyParseError } from '../request/body-parser.js';
export { HttpError } from '../http-error.js';
export type { KilnRequest } from '../request/kiln-request.js';
export { firstText, listOf, splitHeader, type RawValue } from './raw-value.js';
export { conversionError, requiredError } from './parameter-error.js';
export { required } from './required.js';
export { toText } from './to-text.js';
export { toBoolean, toBooleanArray, parseBoolean } from './to-boolean.js';
export { toNumber, toNumberArray, parseNumber } from './to-number.js';
export { toDate, toDateArray, parseDate } from './to-date.js';
export { toJson, toJsonArray, parseJson } from './to-json.js';
export { toEnum, toEnumArray, parseEnum } from './to-enum.js';
export { readBody, bodyField, requiredBody } from './body.js';
export { readFormBody, validateForm, type FormDecoder, type FormValidator } from './form-body.js';
export { validateBody, allBodiesValid, bodyValidationError, type BodyValidator, type BodyValidationError } from './validate-body.js';
export { toTagged, toTaggedArray, parseText, type ParseText } from './to-tagged.js';
export { toCheckedJson, toCheckedJsonArray, parameterValidationError } from './to-checked-json.js';
export { bodyText, bodyNumber, bodyBoolean, bodyEnum, isTextBody } from './body-scalar.js';
export { readEnv } from '../config/read-env.js';
export type { EnvPlan, EnvVariable, EnvConversion, EnvValidation } from '../config/env-plan.js';
