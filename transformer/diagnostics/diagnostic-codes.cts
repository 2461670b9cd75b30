// Every build-time diagnostic @kiln/core/transformer reports, in one registry. A test checks that each
// code here is documented in docs/reference/diagnostics.md.

export interface DiagnosticCode {
  readonly code: number;
  /** One line: what is wrong. */
  readonly title: string;
}

export const diagnosticCodes = {
  paramNotInPath: { code: 101, title: "@Param('x') names a route parameter that the route path does not declare" },
  unboundParameter: { code: 102, title: 'a route handler or middleware use() parameter has no Kiln binding decorator' },
  unsupportedType: { code: 103, title: 'the declared type of a parameter cannot be converted from request text' },
  itemsContradictType: { code: 104, title: "the items argument contradicts the parameter's declared type, or is not known at build time" },
  duplicateRoute: { code: 105, title: 'the same method and path are declared twice in one program' },
  notARouteOrUse: { code: 106, title: 'a Kiln parameter decorator is on a method that is neither a route nor a middleware use()' },
  nameNotLiteral: { code: 107, title: 'the name given to a Kiln parameter decorator is not a string literal' },
  twoBindings: { code: 108, title: 'a parameter has more than one Kiln binding decorator' },
  uncalledDecorator: { code: 109, title: 'a Kiln parameter decorator is used without being called (`@Req` instead of `@Req()`)' },
  typiaNotConfigured: { code: 110, title: "a typed @Body needs typia's transformer, and compilerOptions.plugins does not list it" },
  bodyTypeNotNameable: { code: 111, title: 'a typed @Body is on a method whose type generated code cannot name from module scope' },
  notJsonInBody: {
    code: 112,
    title:
      'a @Body type holds a Date (or a bigint, symbol, function, Map, Set...), which a JSON body can never carry, or a File where no multipart part can be',
  },
  uploadFileNeedsDomLib: {
    code: 117,
    title:
      'a @Body type has a File property, and the File type is not the web File of TypeScript\'s DOM library (add "DOM" to compilerOptions.lib)',
  },
  injectionNoRuntimeValue: {
    code: 160,
    title:
      'an injected parameter is typed by something with no run-time value (an interface, a type alias, a union, a primitive) and has no @Inject(token)',
  },
  notInjectable: { code: 161, title: 'an injected parameter names a class of this program that is not marked @Injectable()' },
  dependencyCycle: { code: 162, title: 'services depend on each other in a cycle (A -> B -> A)' },
  tokenTypeMismatch: { code: 163, title: "the value an @Inject(token) provides does not fit the parameter's declared type" },
  injectionMisplaced: {
    code: 164,
    title:
      '@Inject or @Scope is where Kiln injects nothing (not a constructor of a controller, class middleware or service, nor a route or use() parameter)',
  },
  injectionNotReachable: {
    code: 165,
    title: 'an injected class or token cannot be referenced from module scope (declared in a function, or imported with `import type`)',
  },
  legacyDecoratorsOption: {
    code: 130,
    title: "tsconfig.json turns on TypeScript's legacy decorators; Kiln uses standard (TC39) decorators: remove the option",
  },
  generatedCodeError: {
    code: 190,
    title: 'internal: @kiln/core/transformer failed on this file, or its generated binder does not type-check (a bug; please report it)',
  },
  typiaNotConfiguredForParameter: {
    code: 113,
    title:
      "a parameter with typia tags or an object type is checked by typia, and compilerOptions.plugins does not list typia's transformer",
  },
  parameterTypeNotNameable: {
    code: 114,
    title: 'a parameter with typia tags or an object type is on a method whose type generated code cannot name from module scope',
  },
  requestPropertyTypeMismatch: {
    code: 115,
    title: "the declared type of a @Req() or request-property parameter does not accept the request property's type",
  },
  staticOrPrivateRoute: {
    code: 116,
    title: 'a route decorator is on a static or #private method, which a controller instance cannot dispatch to',
  },
  bigintInResponse: { code: 150, title: "a route handler's return type holds a bigint, which JSON cannot carry" },
  typedResponsesWithoutTypia: {
    code: 151,
    title: "the plugin option typedResponses is set, and compilerOptions.plugins does not list typia's transformer",
  },
  unfilterableResponsePart: {
    code: 152,
    title:
      "warning: a part of a route's return type cannot be filtered (any, unknown, object, {}, a template-literal index signature, a class with toJSON, never, a type parameter): it is sent as it is",
  },
  openApiNotJson: {
    code: 140,
    title: "a route's return type cannot be described in the OpenAPI document: it is not JSON (a bigint, symbol, function, Map, Set...)",
  },
  duplicateOperationId: { code: 141, title: 'two routes would have the same OpenAPI operationId (Controller.method)' },
  openApiOptionInvalid: {
    code: 142,
    title: "the plugin entry's openapi option is invalid, or typia (which writes the document's schemas) is not installed",
  },
  openApiTypeNotDescribable: { code: 143, title: 'a parameter or body type cannot be described in JSON schema for the OpenAPI document' },
  openApiPathUnknown: { code: 144, title: 'a route path is not known at build time, so the OpenAPI document cannot describe the route' },
  openApiNotWritten: { code: 145, title: 'the OpenAPI document could not be generated or written to its output file' },
  clientOptionInvalid: {
    code: 170,
    title: "the plugin entry's client option is invalid, or typia (which writes the document the client is typed from) is not installed",
  },
  clientNotWritten: { code: 171, title: 'the typed client could not be written to its output file' },
  clientInputNameClash: {
    code: 172,
    title: "two inputs of a route (a query key, route parameter, header, or the body) have the same name in its client function's input",
  },
  clientFunctionNameClash: {
    code: 173,
    title: 'two routes of one controller would be the same client function (the method name of one and the @operationId of the other)',
  },
  throwsNotAnHttpError: {
    code: 174,
    title:
      "a route's @throws JSDoc tag does not name an HttpError type with a literal status from 400 to 599, or writes its data type inside the tag",
  },
} as const satisfies Record<string, DiagnosticCode>;

export type DiagnosticKey = keyof typeof diagnosticCodes;

/** `KILN101` */
export function codeLabel(key: DiagnosticKey): string {
  return `KILN${diagnosticCodes[key].code}`;
}
