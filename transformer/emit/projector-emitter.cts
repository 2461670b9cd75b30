// The projector written for one shape (src/response/projection.ts says what it computes): one
// small function per shape node that copies, in the value's own key order, the properties the
// type declares, reading each by a constant name (and, for an index signature, every other key). Anything off that path (an array where an
// object is declared, a class instance, a `toJSON`, a wrapper object) is handed to the runtime's
// interpreter over the same shapes, so both always agree.
import type { ShapeNode, ShapeRef } from '../analyse/response-shape.cjs';

/** `[...table...], (kit) => {...}`: the two arguments of `kiln$b.projectingSerializer`. */
export function emitProjector(root: ShapeRef): string {
  const order: ShapeNode[] = [];
  const index = new Map<ShapeNode, number>();
  const number = (ref: ShapeRef): number => {
    if (ref === 'asIs') return -1;
    if (ref === 'scalar') return -2;
    let i = index.get(ref);
    if (i === undefined) {
      i = order.length;
      index.set(ref, i);
      order.push(ref);
    }
    return i;
  };
  // The root is row 0; a scalar root is a node with nothing in it.
  number(root === 'scalar' || root === 'asIs' ? { id: -1 } : root);
  const rows: string[] = [];
  for (let i = 0; i < order.length; i++) {
    const node = order[i]!;
    const props =
      node.props === undefined
        ? 'null'
        : `[${[...node.props].map(([name, ref]) => `[${JSON.stringify(name)}, ${number(ref)}]`).join(', ')}]`;
    const items = node.items === undefined ? 'null' : String(number(node.items));
    const tuple = node.tuple === undefined ? 'null' : `[${node.tuple.map(number).join(', ')}]`;
    const indexes =
      node.values === undefined && node.numericValues === undefined
        ? ''
        : `, ${node.values === undefined ? 'null' : number(node.values)}, ${node.numericValues === undefined ? 'null' : number(node.numericValues)}`;
    rows.push(`[${props}, ${items}, ${tuple}${indexes}]`);
  }
  const functions = order.map((node, i) => projectorFunction(node, i, number));
  return [
    `[${rows.join(', ')}], ({ shapes: S, project: P, setOwn: W, scalar: C }) => {`,
    '  const OP = Object.prototype, AP = Array.prototype, gp = Object.getPrototypeOf, isA = Array.isArray;',
    '  const num = (n: string): boolean => String(+n) === n;',
    ...functions,
    '  return f0;',
    '}',
  ].join('\n');
}

/** The expression projecting `x` (at key `key`) to `ref`. */
function valueExpression(ref: ShapeRef, x: string, key: string, number: (ref: ShapeRef) => number): string {
  if (ref === 'asIs') return x;
  if (ref === 'scalar') return `(typeof ${x} !== "object" || ${x} === null ? ${x} : P(${x}, C, ${key}))`;
  return `f${number(ref)}(${x}, ${key})`;
}

/** The statement storing `x` under an undeclared key `n`, as the node's index signatures keep it; undefined: none. */
function indexExpression(node: ShapeNode, number: (ref: ShapeRef) => number): string | undefined {
  const { values, numericValues } = node;
  if (values === undefined && numericValues === undefined) return undefined;
  const stringKeyed = values === undefined ? undefined : valueExpression(values, 'x', 'n', number);
  if (numericValues === undefined) return `W(o, n, ${stringKeyed});`;
  const numberKeyed = valueExpression(numericValues, 'x', 'n', number);
  if (stringKeyed === undefined) return `{ if (num(n)) W(o, n, ${numberKeyed}); }`;
  return `W(o, n, num(n) ? ${numberKeyed} : ${stringKeyed});`;
}

function projectorFunction(node: ShapeNode, i: number, number: (ref: ShapeRef) => number): string {
  const slow = `return P(v, S[${i}]!, k);`;
  const lines = [
    `  function f${i}(v: any, k: any): any {`,
    '    if (typeof v !== "object" || v === null) return v;',
    `    if (v.toJSON !== undefined) ${slow}`,
  ];
  if (node.items !== undefined && node.tuple === undefined) {
    lines.push(
      '    if (isA(v)) {',
      `      if (gp(v) !== AP) ${slow}`,
      '      const n = v.length, o = new Array(n);',
      `      for (let i = 0; i < n; i++) { const x = v[i]; o[i] = ${valueExpression(node.items, 'x', 'i', number)}; }`,
      '      return o;',
      '    }',
    );
  } else lines.push(`    if (isA(v)) ${slow}`);
  lines.push(`    if (gp(v) !== OP) ${slow}`, '    const o: any = {};');
  // An index signature keeps every other key, each value projected to its type (W: the key may be __proto__).
  const indexed = indexExpression(node, number);
  if ((node.props !== undefined && node.props.size > 0) || indexed !== undefined) {
    lines.push('    for (const n in v) {', '      switch (n) {');
    for (const [name, ref] of node.props ?? []) {
      const literal = JSON.stringify(name);
      const value = valueExpression(ref, 'x', 'n', number);
      const store = name === '__proto__' ? `W(o, n, ${value})` : `o[${literal}] = ${value}`;
      lines.push(`        case ${literal}: { const x = v[${literal}]; ${store}; break; }`);
    }
    // A function is left out (JSON.stringify would): a copied `toJSON` would be called on the result, unfiltered.
    if (indexed !== undefined) lines.push(`        default: { const x = v[n]; if (typeof x !== "function") ${indexed} }`);
    lines.push('      }', '    }');
  }
  lines.push('    return o;', '  }');
  return lines.join('\n');
}
