// The security part of the served document: the schemes the middlewares of each route check,
// gathered into `components.securitySchemes`, and each operation's `security` requirement.
import { kilnError } from '../kiln-error.js';
import type { MiddlewareOpenApi, SecurityScheme } from './middleware-description.js';

type Json = Record<string, any>;

/** Key order does not make two scheme objects different. */
function sameScheme(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  const keysA = Object.keys(a).sort();
  const keysB = Object.keys(b).sort();
  return keysA.length === keysB.length && keysA.every((key, i) => key === keysB[i] && sameScheme((a as Json)[key], (b as Json)[key]));
}

/** Adds a scheme to `components.securitySchemes`; the same name for two different schemes is KILN035. */
function registerScheme(document: Json, name: string, scheme: SecurityScheme, where: string): void {
  if (scheme === null || typeof scheme !== 'object' || typeof scheme.type !== 'string')
    throw kilnError('KILN035', 'notASchemeObject', name, where);
  document.components ??= {};
  const schemes: Json = (document.components.securitySchemes ??= {});
  const existing = schemes[name];
  if (existing === undefined) schemes[name] = structuredClone(scheme);
  else if (!sameScheme(existing, scheme)) throw kilnError('KILN035', 'nameTaken', name, existing, scheme, where);
}

/** The parameter a scheme sends itself, which the operation need not ask for as well. */
function sentBy(scheme: SecurityScheme): { in: string; name: string } | undefined {
  if (scheme.type === 'apiKey') return { in: scheme.in, name: scheme.name };
  if (scheme.type === 'http') return { in: 'header', name: 'authorization' };
  return undefined;
}

/**
 * Gives `operation` the security of the middlewares it runs: each middleware's schemes are
 * alternatives (`[{ a: [] }, { b: [] }]`), and two middlewares are both required (the
 * requirements' cross product). A header, query or cookie parameter that one of the schemes
 * sends is dropped from the operation's parameters: Swagger UI would otherwise ask for it twice.
 */
export function addSecurity(document: Json, operation: Json, descriptions: readonly MiddlewareOpenApi[], where: string): void {
  let requirements: Record<string, string[]>[] = [{}];
  const sent: { in: string; name: string }[] = [];
  for (const description of descriptions) {
    const names = Object.keys(description.security ?? {});
    if (names.length === 0) continue;
    for (const name of names) {
      const scheme = description.security![name]!;
      registerScheme(document, name, scheme, where);
      const parameter = sentBy(scheme);
      if (parameter !== undefined) sent.push(parameter);
    }
    requirements = requirements.flatMap((requirement) => names.map((name) => ({ ...requirement, [name]: [] })));
  }
  if (sent.length === 0 && Object.keys(requirements[0]!).length === 0) return;
  operation.security = requirements;
  if (Array.isArray(operation.parameters)) {
    operation.parameters = operation.parameters.filter(
      (parameter: Json) => !sent.some((s) => s.in === parameter.in && s.name.toLowerCase() === String(parameter.name).toLowerCase()),
    );
    if (operation.parameters.length === 0) delete operation.parameters;
  }
}
