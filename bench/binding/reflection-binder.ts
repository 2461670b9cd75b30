// A reflection-based binder, the way decorator frameworks built on `emitDecoratorMetadata` bind
// parameters (routing-controllers, NestJS): parameter decorators record (source, name) with
// reflect-metadata, `design:paramtypes` supplies the declared types, and one generic loop reads
// and converts each argument. Reasonably optimised: everything is read from metadata once, at
// start-up, into a plan; a request only walks the plan.
import 'reflect-metadata';

type Source = 'param' | 'query' | 'header';

interface ParameterRecord {
  index: number;
  source: Source;
  name: string;
  items?: Function;
}

interface ParameterPlan extends ParameterRecord {
  type: Function;
}

/** The request surface both binders read: what a Kiln request offers. */
export interface BindingRequest {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: { get(name: string): string | null };
}

const parametersKey = Symbol('bench:parameters');

function recorder(source: Source) {
  return (name: string, items?: Function): ParameterDecorator =>
    (target, method, index) => {
      const records: ParameterRecord[] = Reflect.getOwnMetadata(parametersKey, target, method!) ?? [];
      records.push({ index, source, name, items });
      Reflect.defineMetadata(parametersKey, records, target, method!);
    };
}

export const Param = recorder('param');
export const Query = recorder('query');
export const Header = recorder('header');

class ConversionError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function read(req: BindingRequest, plan: ParameterPlan): unknown {
  switch (plan.source) {
    case 'param':
      return req.params[plan.name];
    case 'query':
      return req.query[plan.name];
    case 'header':
      return req.headers.get(plan.name) ?? undefined;
  }
}

function convertOne(raw: unknown, type: Function, name: string, strict: boolean): unknown {
  if (raw === undefined) return type === Boolean ? false : undefined;
  const text = Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw);
  switch (type) {
    case String:
      return text;
    case Number: {
      const value = Number(text);
      if (strict && (text === '' || Number.isNaN(value)))
        throw new ConversionError(400, `Parameter '${name}' expected number, got '${text}'`);
      return value;
    }
    case Boolean:
      return text === 'true' || text === '1';
    case Date: {
      const value = new Date(text);
      if (strict && Number.isNaN(value.getTime())) throw new ConversionError(400, `Parameter '${name}' expected valid date, got '${text}'`);
      return value;
    }
    default:
      try {
        return JSON.parse(text);
      } catch {
        if (strict) throw new ConversionError(400, `Parameter '${name}' expected valid JSON, got '${text}'`);
        return null;
      }
  }
}

function convert(raw: unknown, plan: ParameterPlan, strict: boolean): unknown {
  if (plan.type !== Array) return convertOne(raw, plan.type, plan.name, strict);
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const items = plan.items ?? String;
  if (items === String) return list;
  const converted = new Array(list.length);
  for (let i = 0; i < list.length; i++) converted[i] = convertOne(list[i], items, `${plan.name}[${i}]`, strict);
  return converted;
}

/** Reads the metadata of `controller.prototype[method]` once and returns its binder. */
export function reflectionBinder(controller: Function, method: string): (req: BindingRequest, strict: boolean) => unknown[] {
  const types: Function[] = Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? [];
  const records: ParameterRecord[] = Reflect.getOwnMetadata(parametersKey, controller.prototype, method) ?? [];
  const plans: ParameterPlan[] = records
    .map((record) => ({ ...record, type: types[record.index] ?? String }))
    .sort((a, b) => a.index - b.index);
  const count = types.length;
  return (req, strict) => {
    const args = new Array(count);
    for (let i = 0; i < plans.length; i++) {
      const plan = plans[i]!;
      args[plan.index] = convert(read(req, plan), plan, strict);
    }
    return args;
  };
}
