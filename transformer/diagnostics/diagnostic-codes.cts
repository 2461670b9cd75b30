// Every build-time diagnostic @kiln/core/transformer reports, in one registry, in numeric order: its
// code, what it means, and the messages it is reported with (call sites name one and pass its
// arguments, so the wording lives here). A test checks that each code is documented in
// docs/reference/diagnostics.md, has a message, and that the order holds.

export interface DiagnosticCode {
  readonly code: number;
  /** One line: what is wrong. */
  readonly title: string;
  /** A warning is printed and never fails a build; every other code is an error. */
  readonly warning?: true;
  readonly messages: Readonly<Record<string, (...args: never[]) => string>>;
}

/** What to add to tsconfig.json for typia's transformer, as the KILN110/113/151 messages say it. */
export const typiaEntry = '{ "transform": "typia/lib/transform" }';
const addTypia = `add ${typiaEntry} after @kiln/core/transformer's entry in compilerOptions.plugins (and npm install typia), `;

export const diagnosticCodes = {
  paramNotInPath: {
    code: 101,
    title: "@Param('x') names a route parameter that the route path does not declare",
    messages: {
      notInPath: (written: string, method: string, path: string, key: string) =>
        `${written} but the route ${method} ${path} declares no ':${key}'`,
    },
  },
  unboundParameter: {
    code: 102,
    title: 'a route handler or middleware use() parameter has no Kiln binding decorator',
    messages: {
      unbound: (parameter: string) =>
        `parameter '${parameter}' has no binding decorator: add @Param, @Query, @Header, @Body, @Req, @Inject() or a decorator made by routeRequestParamDecorator`,
    },
  },
  unsupportedType: {
    code: 103,
    title: 'the declared type of a parameter cannot be converted from request text',
    messages: {
      unconvertible: (parameter: string, reason: string) =>
        `parameter '${parameter}': ${reason}. Supported: string, number, boolean, Date, an object type (JSON), an array of those, an enum or a union of literals, string or number with typia tags`,
      notFromJson: (written: string, where: string, what: string, advice: string) =>
        `${written}: ${where} is ${what}, which JSON text never gives; ${advice}`,
    },
  },
  itemsContradictType: {
    code: 104,
    title: "the items argument contradicts the parameter's declared type, or is not known at build time",
    messages: {
      contradicts: (parameter: string, error: string) => `parameter '${parameter}': ${error}`,
    },
  },
  duplicateRoute: {
    code: 105,
    title: 'the same method and path are declared twice in one program',
    messages: {
      declaredTwice: (method: string, path: string, first: string) => `${method} ${path} is already declared by ${first}`,
    },
  },
  notARouteOrUse: {
    code: 106,
    title: 'a Kiln parameter decorator is on a method that is neither a route nor a middleware use()',
    messages: {
      notARoute: (decorator: string, member: string) =>
        `${decorator} is on '${member}', which is neither a route (@Get, @Post, ...) nor the use() method of a @Middleware() class`,
    },
  },
  nameNotLiteral: {
    code: 107,
    title: 'the name given to a Kiln parameter decorator is not a string literal',
    messages: {
      typeArgument: (label: string) =>
        `the name of ${label}<T, Name> must be a string literal known at build time: give it as the second type argument`,
      decoratorArgument: (label: string) => `the name of ${label} must be a string literal known at build time`,
    },
  },
  twoBindings: {
    code: 108,
    title: 'a parameter has more than one Kiln binding decorator',
    messages: {
      injectedAndBound: (parameter: string) => `parameter '${parameter}' is both injected and bound to the request; keep one`,
      several: (parameter: string, count: number) => `parameter '${parameter}' has ${count} Kiln binding decorators; keep one`,
    },
  },
  uncalledDecorator: {
    code: 109,
    title: 'a Kiln parameter decorator is used without being called (`@Req` instead of `@Req()`)',
    messages: {
      uncalled: (written: string, argument: string) => `@${written} must be called: @${written}(${argument})`,
    },
  },
  typiaNotConfigured: {
    code: 110,
    title: "a typed @Body needs typia's transformer, and compilerOptions.plugins does not list it",
    messages: {
      body: (written: string) =>
        `${written} is validated by a typia validator generated at build time (typia is needed for object and array body types and for typia tags; ` +
        "a string, number, boolean, literal union or enum needs none), but typia's transformer is not configured: " +
        addTypia +
        'or declare the body unknown to leave it unvalidated',
    },
  },
  bodyTypeNotNameable: {
    code: 111,
    title: 'a typed @Body is on a method whose type generated code cannot name from module scope',
    messages: {
      notNameable: (written: string, reason: string) =>
        `${written} cannot be validated: ${reason}, so generated code cannot name its type from module scope. ` +
        'Declare the controller as a class at the top level of its module with a public, named method, or declare the body unknown',
    },
  },
  notJsonInBody: {
    code: 112,
    title:
      'a @Body type holds a Date (or a bigint, symbol, function, Map, Set...), which a JSON body can never carry, or a File where no multipart part can be',
    messages: {
      file: (where: string, advice: string) =>
        `A File is one part of a multipart/form-data body: ${where} is a File where no part can be; ${advice}`,
      date: (where: string, advice: string) => `JSON has no dates: ${where} is a Date, which a request body can never carry; ${advice}`,
      other: (what: string, where: string, advice: string) =>
        `JSON cannot carry ${what}: ${where} is ${what}, which a request body can never carry; ${advice}`,
    },
  },
  typiaNotConfiguredForParameter: {
    code: 113,
    title:
      "a parameter with typia tags or an object type is checked by typia, and compilerOptions.plugins does not list typia's transformer",
    messages: {
      tags: (written: string, what: string) =>
        `${written} is checked against ${what} by a typia validator generated at build time, but typia's transformer is not configured: ` +
        addTypia +
        'or remove the tags and check the value in the handler',
      objectType: (written: string, what: string) =>
        `${written} is checked against ${what} by a typia validator generated at build time, but typia's transformer is not configured: ` +
        addTypia +
        'or declare the parameter unknown and check it in the handler',
    },
  },
  parameterTypeNotNameable: {
    code: 114,
    title: 'a parameter with typia tags or an object type is on a method whose type generated code cannot name from module scope',
    messages: {
      notNameable: (written: string, what: string, reason: string) =>
        `${written} cannot be checked against ${what}: ${reason}, so generated code cannot name its type from module scope. ` +
        'Declare the controller as a class at the top level of its module with a public, named method',
    },
  },
  requestPropertyTypeMismatch: {
    code: 115,
    title: "the declared type of a @Req() or request-property parameter does not accept the request property's type",
    messages: {
      request: (decorator: string, parameter: string, typeText: string, injected: string) =>
        `${decorator} ${parameter}: ${typeText} does not accept the request, a KilnRequest: declare ${parameter}: ${injected}`,
      property: (decorator: string, parameter: string, typeText: string, key: string, injected: string) =>
        `${decorator} ${parameter}: ${typeText} does not accept req.${key}, which is ${injected}: declare ${parameter}: ${injected} (or a type that accepts it)`,
    },
  },
  staticOrPrivateRoute: {
    code: 116,
    title: 'a route decorator is on a static or #private method, which a controller instance cannot dispatch to',
    messages: {
      staticMethod: (decorator: string, where: string, controller: string) =>
        `${decorator} is on the static method ${where}, which the router cannot call on a ${controller} instance; make it an instance method`,
      privateMethod: (decorator: string, where: string) =>
        `${decorator} is on the #private method ${where}, which the router cannot reach from outside the class; drop the # (a TypeScript private method works)`,
    },
  },
  uploadFileNeedsDomLib: {
    code: 117,
    title:
      'a @Body type has a File property, and the File type is not the web File of TypeScript\'s DOM library (add "DOM" to compilerOptions.lib)',
    messages: {
      nodeFile: (written: string) =>
        `${written} has files, read from multipart/form-data, and its File is Node's (@types/node) rather than the web File that typia decodes: ` +
        'add "DOM" to compilerOptions.lib (for example "lib": ["ES2023", "DOM"])',
    },
  },
  legacyDecoratorsOption: {
    code: 130,
    title: "tsconfig.json turns on TypeScript's legacy decorators; Kiln uses standard (TC39) decorators: remove the option",
    messages: {
      optionOn: (option: string, companions: string, where: string) =>
        `${option} is on: TypeScript would compile Kiln's standard (TC39) decorators as legacy decorators and the app ` +
        `would crash at start-up. Remove "${option}"${companions} from ${where}: Kiln uses standard decorators only`,
    },
  },
  openApiNotJson: {
    code: 140,
    title: "a route's return type cannot be described in the OpenAPI document: it is not JSON (a bigint, symbol, function, Map, Set...)",
    messages: {
      notJson: (route: string, typeText: string, problems: string) =>
        `${route} returns '${typeText}', which JSON cannot describe: ${problems}. Return JSON data, or a Response (described as any content; a @produces <media-type> JSDoc tag names its type)`,
    },
  },
  duplicateOperationId: {
    code: 141,
    title: 'two routes would have the same OpenAPI operationId (Controller.method)',
    messages: {
      taken: (operationId: string, method: string, path: string, firstMethod: string, firstPath: string, firstFile: string) =>
        `operationId '${operationId}' of ${method} ${path} is already used by ${firstMethod} ${firstPath} (${firstFile}); rename one class or method, or give one an @operationId tag in its JSDoc`,
    },
  },
  openApiOptionInvalid: {
    code: 142,
    title: "the plugin entry's openapi option is invalid, or typia (which writes the document's schemas) is not installed",
    messages: {
      noOutput: () =>
        'the openapi option needs an output file, e.g. "openapi": { "output": "openapi.json", "info": { "title": "Bookshop", "version": "1.0.0" } }',
      info: () => 'openapi.info needs a string title and a string version, e.g. { "title": "Bookshop", "version": "1.0.0" }',
      servers: () => 'openapi.servers must be a list of { "url": "..." }',
      noTypia: () => "the OpenAPI document's schemas are written by typia: npm install --save-dev typia",
    },
  },
  openApiTypeNotDescribable: {
    code: 143,
    title: 'a parameter or body type cannot be described in JSON schema for the OpenAPI document',
    messages: {
      body: (route: string, problems: string) => `the body type of ${route} cannot be described in JSON schema: ${problems}`,
      parameter: (parameter: string, route: string, problems: string) =>
        `parameter '${parameter}' of ${route} cannot be described in JSON schema: ${problems}`,
      errorData: (route: string, status: number, problems: string) =>
        `the data of ${route}'s declared ${status} error cannot be described in JSON schema: ${problems}`,
    },
  },
  openApiPathUnknown: {
    code: 144,
    title: 'a route path is not known at build time, so the OpenAPI document cannot describe the route',
    messages: {
      pathUnknown: (method: string, route: string) =>
        `the path of ${method} route ${route} is not known at build time, so the OpenAPI document cannot describe it; write the controller's and the route's paths as string literals or consts`,
    },
  },
  openApiNotWritten: {
    code: 145,
    title: 'the OpenAPI document could not be generated or written to its output file',
    messages: {
      notGenerated: (reason: string) => `the OpenAPI document could not be written: ${reason}`,
      writeFailed: (file: string, reason: string) => `writing ${file} failed: ${reason}`,
    },
  },
  bigintInResponse: {
    code: 150,
    title: "a route handler's return type holds a bigint, which JSON cannot carry",
    messages: {
      bigint: (method: string, where: string) =>
        `${method} returns a bigint (${where}), which JSON cannot carry (JSON.stringify throws on it): ` +
        'return it as a string (value.toString()) or a number, and declare the return type so',
    },
  },
  typedResponsesWithoutTypia: {
    code: 151,
    title: "the plugin option typedResponses is set, and compilerOptions.plugins does not list typia's transformer",
    messages: {
      noTypia: () =>
        '"typedResponses" is set in the @kiln/core/transformer entry, and typed responses are written by typia: ' +
        'add { "transform": "typia/lib/transform" } after Kiln\'s entry in compilerOptions.plugins (and npm install typia), ' +
        'or remove the option',
    },
  },
  unfilterableResponsePart: {
    code: 152,
    title:
      "warning: a part of a route's return type cannot be filtered (any, unknown, object, {}, a template-literal index signature, a class with toJSON, never, a type parameter): it is sent as it is",
    warning: true,
    messages: {
      sentAsItIs: (where: string, method: string, what: string) =>
        `${where} in the return value of ${method} is ${what}, which cannot be filtered: it is sent as it is, ` +
        'every property it holds included. Declare its properties to send only those',
    },
  },
  injectionNoRuntimeValue: {
    code: 160,
    title:
      'an injected parameter is typed by something with no run-time value (an interface, a type alias, a union, a primitive) and has no @Inject(token)',
    messages: {
      noValue: (parameter: string, cls: string, written: string) =>
        `parameter '${parameter}' of ${cls} is typed '${written}', which has no run-time value to inject: type it with an @Injectable() class, or add @Inject(token) and register the token in createServer({ injections })`,
    },
  },
  notInjectable: {
    code: 161,
    title: 'an injected parameter names a class of this program that is not marked @Injectable()',
    messages: {
      notMarked: (parameter: string, cls: string, needed: string) =>
        `parameter '${parameter}' of ${cls} needs ${needed}, which is not marked @Injectable(): add @Injectable() to ${needed}, or register it with @Inject(token)`,
    },
  },
  dependencyCycle: {
    code: 162,
    title: 'services depend on each other in a cycle (A -> B -> A)',
    messages: {
      cycle: (cycle: string) =>
        `dependency cycle: ${cycle}. Break it: move what both need into a third service, or inject a token whose value is built by a factory`,
    },
  },
  tokenTypeMismatch: {
    code: 163,
    title: "the value an @Inject(token) provides does not fit the parameter's declared type",
    messages: {
      mismatch: (token: string, provides: string, parameter: string, declared: string) =>
        `@Inject(${token}) provides ${provides}, which parameter '${parameter}: ${declared}' does not accept`,
    },
  },
  injectionMisplaced: {
    code: 164,
    title:
      '@Inject or @Scope is where Kiln injects nothing (not a constructor of a controller, class middleware or service, nor a route or use() parameter)',
    messages: {
      notInjected: (decorator: string, member: string, cls: string) =>
        `${decorator} is on '${member}' of ${cls}: Kiln injects into constructors of controllers, class middlewares and @Injectable() services, and into route and use() parameters`,
      scopeAlone: (parameter: string) => `@Scope on parameter '${parameter}' needs @Inject() beside it`,
      scopeUnknown: () => '@Scope needs one of Scopes.SHARED, Scopes.LOCAL, Scopes.DEEP_LOCAL, known at build time',
    },
  },
  injectionNotReachable: {
    code: 165,
    title: 'an injected class or token cannot be referenced from module scope (declared in a function, or imported with `import type`)',
    messages: {
      typeOnlyImport: (name: string) => `${name} is imported with 'import type', so the build has no value to inject: import it as a value`,
      insideFunction: (name: string) =>
        `${name} is declared inside a function, where the dependency list written at module scope cannot name it: declare it at module scope`,
    },
  },
  envTypeNotReadable: {
    code: 166,
    title:
      'a property of the env<T>() configuration type has no encoding in an environment variable (an object, a nested array), or T is not an object type of variables',
    messages: {
      noTypeArgument: () => 'env() needs the configuration type: env<AppConfig>()',
      notAnObject: (type: string) => `env<${type}>(): '${type}' is not an object type whose properties are the variables`,
      unconvertible: (type: string, name: string, reason: string) => `env<${type}>(): ${name}: ${reason}`,
      objectProperty: (type: string, name: string, printed: string) =>
        `env<${type}>(): ${name}: '${printed}' is an object, which has no encoding in one environment variable: declare its parts as variables of their own (DB_HOST, DB_PORT), or a string and parse it yourself`,
    },
  },
  envTypiaNotConfigured: {
    code: 167,
    title: "an env<T>() configuration type has typia tags, and compilerOptions.plugins does not list typia's transformer",
    messages: {
      tagsWithoutTypia: (type: string) => `env<${type}>() has typia tags, which typia's transformer checks: ${addTypia}or drop the tags`,
    },
  },
  clientOptionInvalid: {
    code: 170,
    title: "the plugin entry's client option is invalid, or typia (which writes the document the client is typed from) is not installed",
    messages: {
      noOutput: () => 'the client option needs the TypeScript file to write, e.g. "client": { "output": "src/client.ts" }',
      runtimeModule: () => 'client.runtimeModule must name a module, e.g. "@kiln/core/client"',
      noTypia: () => 'the client is typed from the schemas typia writes: npm install --save-dev typia',
    },
  },
  clientNotWritten: {
    code: 171,
    title: 'the typed client could not be written to its output file',
    messages: {
      writeFailed: (file: string, reason: string) => `writing ${file} failed: ${reason}`,
    },
  },
  clientInputNameClash: {
    code: 172,
    title: "two inputs of a route (a query key, route parameter, header, or the body) have the same name in its client function's input",
    messages: {
      sameName: (method: string, path: string, operationId: string, name: string) =>
        `two inputs of ${method} ${path} (${operationId}) are named '${name}' in its client function's input; rename one parameter (a query key, route parameter or header), or the one named 'body'`,
    },
  },
  clientFunctionNameClash: {
    code: 173,
    title: 'two routes of one controller would be the same client function (the method name of one and the @operationId of the other)',
    messages: {
      sameFunction: (method: string, path: string, operationId: string, clientFunction: string) =>
        `${method} ${path} (${operationId}) would be the client function ${clientFunction}, which another route of the controller already is; give one an @operationId tag in its JSDoc`,
    },
  },
  throwsNotAnHttpError: {
    code: 174,
    title:
      "a route's @throws JSDoc tag does not name an HttpError type with a literal status from 400 to 599, or writes its data type inside the tag",
    messages: {
      notAnHttpError: (route: string, problem: string) => `the @throws tag of ${route} ${problem}`,
    },
  },
  errorsOptionInvalid: {
    code: 177,
    title: "the plugin entry's errors option is neither 'json' (the default error body) nor 'problem+json' (RFC 9457 problem details)",
    messages: {
      notAFormat: (value: string) =>
        `errors must be 'json' (the default error body) or 'problem+json' (RFC 9457 problem details), as createServer's errors option says; got ${value}`,
    },
  },
  problemDataNotDescribable: {
    code: 178,
    title:
      "with errors: 'problem+json', a declared error's data cannot be told as problem details: it has a member RFC 9457 defines (which Kiln leaves out), or it mixes objects and other values",
    messages: {
      reservedMember: (route: string, status: number, member: string) =>
        `the data of the ${status} that ${route} declares has a member named '${member}', which problem details leave out (type, title, status, detail and instance are Kiln's): rename it`,
      mixedData: (route: string, status: number, type: string) =>
        `the data of the ${status} that ${route} declares is ${type}: problem details spread an object's members and put any other value in 'data', so declare one or the other`,
    },
  },
  eventStreamNotIterable: {
    code: 180,
    title: "an @Sse() route's handler does not return an async iterable",
    messages: {
      notIterable: (method: string, type: string) =>
        `${method} is an @Sse() route, so it must return an async iterable of its events (write it as an async * method, or return an AsyncIterable<T>); its return type is ${type}`,
    },
  },
  eventStreamMixesText: {
    code: 181,
    title: "an @Sse() route's event type mixes strings with other values",
    messages: {
      mixed: (method: string, others: string) =>
        `${method} yields strings and ${others}: a string event is sent as its text and any other value as JSON, so a client could not tell "1" from 1. ` +
        'Yield only strings, or wrap the text in an object ({ text })',
    },
  },
  socketTypiaNotConfigured: {
    code: 185,
    title:
      "a @WebSocket route declares its message type, which a typia validator checks, and compilerOptions.plugins does not list typia's transformer",
    messages: {
      messages: (route: string, type: string) =>
        `${route} declares its messages as ${type}, checked by a typia validator generated at build time, but typia's transformer is not configured: ` +
        addTypia +
        'or declare the messages unknown to leave them unchecked',
    },
  },
  socketTypeNotNameable: {
    code: 186,
    title: 'a @WebSocket route with typed messages is on a method that generated code cannot name from module scope',
    messages: {
      notNameable: (route: string, reason: string) =>
        `${route} has typed messages, which generated code must name from module scope, but ${reason}: make it a public method of a class declared at module scope`,
    },
  },
  notJsonInMessage: {
    code: 187,
    title: 'a @WebSocket message type holds something JSON text never carries (a Date, bigint, function, Map, Set…)',
    messages: {
      notJson: (what: string, where: string, advice: string) => `${where} is ${what}, which a JSON message never carries; ${advice}`,
    },
  },
  generatedCodeError: {
    code: 190,
    title: 'internal: @kiln/core/transformer failed on this file, or its generated binder does not type-check (a bug; please report it)',
    messages: {
      analysisFailed: (reason: unknown) => `analysing this file failed: ${reason}`,
      generatedCode: (message: string) => message,
    },
  },
} as const satisfies Record<string, DiagnosticCode>;

export type DiagnosticKey = keyof typeof diagnosticCodes;

type Messages<K extends DiagnosticKey> = (typeof diagnosticCodes)[K]['messages'];
type MessageName<K extends DiagnosticKey> = keyof Messages<K> & string;
type MessageArguments<K extends DiagnosticKey, M extends MessageName<K>> = Messages<K>[M] extends (...args: infer A) => string ? A : never;

/** One diagnostic before it has a place: its key and its text, written from a template of the registry. */
export interface DiagnosticMessage {
  readonly key: DiagnosticKey;
  readonly text: string;
}

/** The message `name` of the diagnostic `key`, written from `args`. */
export function diagnosticMessage<K extends DiagnosticKey, M extends MessageName<K>>(
  key: K,
  name: M,
  ...args: MessageArguments<K, M>
): DiagnosticMessage {
  const template = (diagnosticCodes[key].messages as Record<string, (...args: unknown[]) => string>)[name]!;
  return { key, text: template(...args) };
}

/** `KILN101` */
export function codeLabel(key: DiagnosticKey): string {
  return `KILN${diagnosticCodes[key].code}`;
}
