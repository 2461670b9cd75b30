// The plain-data model between the pipeline's stages: `analyse` fills it from the checker,
// `emit` writes code from it, tests assert on it. No TypeScript nodes in here.

/** Where a bound parameter comes from (the `source` of the `ParameterBinding` brand). */
export type ParameterSource = 'body' | 'param' | 'query' | 'header' | 'cookie' | 'request' | 'inject';

/** How one item (a scalar, or one element of an array) is converted from text. */
export type ItemConversion =
  | { readonly kind: 'text' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'number' }
  | { readonly kind: 'date' }
  | { readonly kind: 'json' }
  | { readonly kind: 'enum'; readonly values: readonly (string | number)[] };

/** How a parameter's value is produced from what its source gives. */
export type Conversion =
  | ItemConversion
  /** Passed as read: `any`/`unknown` declared types, `@Body`, `@Req()` and request properties. */
  | { readonly kind: 'raw' }
  | { readonly kind: 'array'; readonly item: ItemConversion };

/** One bound handler parameter. */
export interface ParameterModel {
  /** Position in the method's parameter list. */
  readonly index: number;
  /** The parameter's name in the source (for comments). */
  readonly parameterName: string;
  readonly source: ParameterSource;
  /** The request key: route parameter, query key, header name (lower case), body field, request property; '' for the whole body / request; for `inject`, the position in the handler's injected values. */
  readonly key: string;
  readonly conversion: Conversion;
  /** With strictValidation, an absent value is a 400: the declared type does not admit `undefined`. */
  readonly required: boolean;
  /** The declared type as written (for comments). */
  readonly typeText: string;
  /** `@Body` with a declared type: validated with typia under strictValidation (transformer/body-validation.cts). */
  readonly validation?: BodyValidation;
  /**
   * Added by issue 13. A query, route-parameter or header value checked by a typia validator after
   * its conversion: the tags of a tagged scalar (or of each array item) under strictValidation, or
   * the declared type of a JSON-parsed object/tuple (or of each item) in both modes. Absent for
   * every other parameter, whose binding is unchanged.
   */
  readonly check?: ParameterCheck;
  /**
   * Added by issue 13. `@Body('field')` (or a whole `@Body()`) declared as a string, number,
   * boolean, literal union or enum: checked by Kiln's own rules, no typia. A JSON value is checked
   * as it is; a form or `text/*` value (always text) is converted like a query parameter.
   */
  readonly bodyScalar?: ItemConversion;
}

/** A typia tag on a parameter's type (`tags.Maximum<100>` is kind `maximum`, value `100`), as typia declares it. */
export interface TypeTag {
  /** typia's `kind`: `type`, `minimum`, `maximum`, `exclusiveMinimum`, `format`, `pattern`, `minLength`, ... */
  readonly kind: string;
  /** The tag's argument when it is a literal (`100`, `'email'`, `'uint32'`); a bigint as its digits. */
  readonly value: string | number | boolean | undefined;
  /** The tag as the checker prints it (`Maximum<100>`). */
  readonly text: string;
}

/** How a query, route-parameter or header value is checked after conversion (see `ParameterModel.check`). */
export interface ParameterCheck {
  /** `tags`: typia tags of a string or number (strict mode only); `type`: a JSON value against its declared object type (both modes). */
  readonly kind: 'tags' | 'type';
  /** Whether each item of an array parameter is checked (the type below is the item type). */
  readonly item: boolean;
  /** The tags, for `kind: 'tags'` (empty for `type`). */
  readonly tags: readonly TypeTag[];
  /** A type expression naming the checked type from module scope: `NonNullable<Parameters<Users['list']>[0]>[number]`. */
  readonly typeQuery: string;
  /** The parameter's declared type in the original file: where typia's own errors about it are reported. */
  readonly site: { readonly start: number; readonly end: number };
}

/** How a typed `@Body` parameter is validated: a typia validator generated for its declared type. */
export interface BodyValidation {
  /** A type expression naming the parameter's declared type from module scope: `Parameters<Users['create']>[0]`. */
  readonly typeQuery: string;
  /** Where failures are reported: `$input` for the whole body, `$input.name` for `@Body('name')`. */
  readonly path: string;
  /** The parameter's declared type in the original file: where typia's own errors about the type are reported. */
  readonly site: { readonly start: number; readonly end: number };
  /** A whole body with a `File` property: read from multipart/form-data and decoded by typia's FormData programmers. */
  readonly form?: true;
}

export interface RouteModel {
  readonly method: string;
  /** The full path (controller base path + method path), when both are known at build time. */
  readonly path: string | undefined;
}

/** One route handler or middleware `use` method that needs a binder. */
export interface MethodModel {
  readonly className: string;
  readonly methodName: string;
  readonly kind: 'route' | 'middleware';
  readonly routes: readonly RouteModel[];
  /** One entry per declared parameter, in order; `undefined` where a parameter has no binding (an error was reported). */
  readonly parameters: readonly (ParameterModel | undefined)[];
  /** 1-based line of the method name. */
  readonly line: number;
  /** End offset of the method's name node: identifies the method again at emit time. */
  readonly nameEnd: number;
}

/** Everything the transformer does to one source file. */
export interface FileModel {
  readonly fileName: string;
  /** The file name as written in generated comments (relative to the project). */
  readonly displayName: string;
  readonly methods: readonly MethodModel[];
  /** Ranges of Kiln parameter decorators, blanked for the checker. */
  readonly decoratorRanges: readonly { readonly start: number; readonly end: number }[];
  /** Module-scope names the blanked decorators referenced: the generated code keeps them referenced, so imports are not reported unused. */
  readonly references: readonly string[];
  /** Names declared inside functions that the blanked decorators referenced (they cannot be referenced from module scope). */
  readonly localReferences: readonly string[];
  /** Classes whose constructor or handlers take injected values. */
  readonly injections: readonly ClassInjectionModel[];
}

/** One injected value, as the runtime resolves it: a token expression written into the build and a scope. */
export interface DependencyModel {
  /** A module-scope expression: the class (`UserService`) or the `@Inject(token)` argument as written. */
  readonly expression: string;
  readonly scope: 'shared' | 'local' | 'deep-local';
  /** `UsersController constructor parameter 'users'`: named in start-up errors. */
  readonly site: string;
  /** A constructor parameter with a default value and no `@Inject`: nothing is injected, so its default applies. */
  readonly useDefault?: true;
}

/** What one controller, class middleware or service needs injected (transformer/analyse/injection.cts). */
export interface ClassInjectionModel {
  readonly className: string;
  /** `name.end` of the class (or its start when anonymous): identifies the class again at emit time. */
  readonly classKey: number;
  readonly line: number;
  readonly constructorParameters: readonly DependencyModel[];
  /** Per handler name: its `@Inject()` parameters, in binder order. */
  readonly handlers: Readonly<Record<string, readonly DependencyModel[]>>;
}
