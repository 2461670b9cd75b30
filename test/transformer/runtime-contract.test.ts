// The transformer never imports the runtime: the names and shapes the two must agree on are
// written on both sides. This suite holds each pair together, reading both builds (dist/).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './support/compile-fixture.js';

const require = createRequire(import.meta.url);
const transformer = (path: string) => require(join(root, 'dist', 'transformer', path));
const runtime = async (path: string) => import(pathToFileURL(join(root, 'dist', 'src', path)).href);
const declarations = (path: string) => readFileSync(join(root, 'dist', 'src', path), 'utf8');

test('each brand the transformer recognises a decorator or token by is declared by the runtime type it names', () => {
  const { runtimeBrands } = transformer('find/runtime-brands.cjs') as { runtimeBrands: Record<string, string> };
  const declaredIn: Record<string, [file: string, type: string]> = {
    parameter: ['decorators/parameters.d.ts', 'ParameterBinding'],
    decorator: ['decorators/kiln-decorator.d.ts', 'KilnDecorator'],
    injection: ['injection/decorators.d.ts', 'InjectionBinding'],
    injectable: ['injection/decorators.d.ts', 'InjectableDecorator'],
    tokenType: ['injection/injection-token.d.ts', 'InjectionToken'],
  };
  assert.equal(Object.keys(runtimeBrands).sort(), Object.keys(declaredIn).sort());
  for (const [role, brand] of Object.entries(runtimeBrands)) {
    const [file, type] = declaredIn[role]!;
    const text = declarations(file);
    const start = text.search(new RegExp(`(interface|class|type) ${type}\\b`));
    assert.ok(start >= 0, `${file} declares ${type}`);
    // The brand is a member of that declaration (before the next top-level declaration).
    const next = text.slice(start + 1).search(/\nexport /);
    const body = next === -1 ? text.slice(start) : text.slice(start, start + 1 + next);
    assert.match(body, new RegExp(`readonly ${brand}\\??:`), `${type} (${file}) declares ${brand}`);
  }
});

/** Every file under `dir` whose name ends with `ending`. */
function filesUnder(dir: string, ending: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : filesUnder(full, ending);
    return name.endsWith(ending) ? [full] : [];
  });
}

test('every @kiln/core/binding helper the emitters write, and every one generated binders call, is exported by @kiln/core/binding', async () => {
  const binding = await runtime('binding/index.js');
  const types = declarations('binding/index.d.ts');
  const { helpersNamespace } = transformer('emit/generated-names.cjs') as { helpersNamespace: string };
  // What the emitters' sources write after the namespace (`${helpers}.toNumber(...)`), and the emitted decorators.
  const written = new Set<string>();
  for (const file of filesUnder(join(root, 'transformer'), '.cts')) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/\$\{helpers(?:Namespace)?\}\.([A-Za-z]+)/g)) written.add(match[1]!);
    for (const match of source.matchAll(/call\('([A-Za-z]+)'/g)) written.add(match[1]!);
    for (const match of source.matchAll(/\$\{helpers\}\.\$\{[^}]*'([A-Za-z]+)' : '([A-Za-z]+)'\}/g)) written.add(match[1]!).add(match[2]!);
  }
  // What the binders generated for this repository's test apps call.
  const called = new Set<string>();
  const namespaceUse = new RegExp(`${helpersNamespace.replace('$', '\\$')}\\.([A-Za-z]+)`, 'g');
  for (const file of filesUnder(join(root, 'build'), '.js')) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(helpersNamespace)) continue;
    for (const match of text.matchAll(namespaceUse)) called.add(match[1]!);
  }
  assert.ok(written.size >= 30, `the emitters write ${written.size} helper names`);
  assert.ok(called.size >= 15, `generated binders call ${called.size} helpers`);
  for (const name of [...written, ...called]) {
    // A value is a property of the module; a type (KilnRequest in a typed binder's signature) is in its declarations.
    const exported = name in binding || new RegExp(`\\b${name}\\b`).test(types);
    assert.ok(exported, `@kiln/core/binding exports ${name}`);
  }
});

// Route paths as both sides write them: segments of letters, digits and the characters routes use.
const segment = fc.oneof(
  fc.stringMatching(/^[a-z0-9._~-]{0,6}$/),
  fc.stringMatching(/^:[A-Za-z_$][\w$]{0,5}$/),
  fc.stringMatching(/^:[^/]{0,4}$/),
);
const routePath = fc.array(segment, { maxLength: 5 }).map((parts) => parts.join('/'));

test('the route-path helpers agree on every path the runtime accepts (one it refuses never starts: KILN006)', async () => {
  const ours = await runtime('router/route-path.js');
  const theirs = transformer('analyse/route-path.cjs');
  fc.assert(
    fc.property(routePath, routePath, (base, method) => {
      const joined = ours.joinRoutePath(base, method) as string;
      assert.is(theirs.joinRoutePath(base, method), joined);
      assert.is(theirs.routeShape(joined), ours.routeShape(joined));
      let names: string[];
      try {
        names = ours.routeParamNames(joined);
      } catch (error) {
        assert.is((error as { code?: string }).code, 'KILN006');
        return;
      }
      assert.equal(theirs.routeParamNames(joined), names);
    }),
  );
});

test('openApiPath writes a route path the same way for the document the build writes and the one the server reads', async () => {
  const ours = await runtime('router/route-path.js');
  const { openApiPath } = transformer('openapi/openapi-document.cjs');
  assert.is(openApiPath('/books/:id/pages/:page'), '/books/{id}/pages/{page}');
  fc.assert(fc.property(routePath, (path) => openApiPath(path) === ours.openApiPath(path)));
});

test("the error body every Kiln error answers with fits the document's KilnErrorBody schema, for any status, message and data", async () => {
  const { errorBody } = await runtime('response/error-body.js');
  const { reasonPhrase } = await runtime('response/reason-phrase.js');
  const { errorBodySchema, errorBodyComponent, reasonPhrases } = transformer('openapi/response-objects.cjs');
  assert.is(errorBodyComponent, 'KilnErrorBody');
  const schema = errorBodySchema as { properties: Record<string, { type?: string }>; required: string[]; additionalProperties: boolean };
  fc.assert(
    fc.property(fc.integer({ min: 400, max: 599 }), fc.string(), fc.option(fc.jsonValue(), { nil: undefined }), (status, message, data) => {
      const body = JSON.parse(errorBody(status, message, data)) as Record<string, unknown>;
      for (const key of schema.required) assert.ok(key in body, `the body has ${key}`);
      assert.is(schema.additionalProperties, false);
      for (const [key, value] of Object.entries(body)) {
        const property = schema.properties[key];
        assert.ok(property !== undefined, `${key} is a property of the schema`);
        if (property.type === 'string') assert.type(value, 'string');
      }
      assert.is(body['error'], reasonPhrase(status) ?? 'Error');
    }),
  );
  // The phrases the document uses are the runtime's (422 included: "Unprocessable Content").
  for (const [status, phrase] of Object.entries(reasonPhrases as Record<string, string>)) {
    assert.is(phrase, reasonPhrase(Number(status)), `the phrase of ${status}`);
  }
  assert.is(reasonPhrase(422), 'Unprocessable Content');
});

test.run();
