// Routes whose typed responses once injected, leaked, crashed or changed a value (issue 23), and one
// route per row of the conversion table whose handler returns its bound value inside an object of
// a declared type. Compiled with typed responses on (test/tsconfig.json lists typia's transformer).
import { Body, Controller, Get, Injectable, Param, Post, Query, Req, type KilnRequest } from '@kiln/core';

export enum Kind {
  Plain = 'plain',
  Fancy = 'fancy',
}
export enum Color {
  Red = 'red',
  Blue = 'blue',
}
export enum Level {
  Low,
  Mid,
  High,
}

export interface Profile {
  name: string;
  role: 'admin' | 'user';
  level: number;
  ok: boolean;
  kind: Kind;
  flag: true;
}

export interface WithMeta {
  id: number;
  meta: object;
  extra: {};
}

export interface Optional {
  id: number;
  nickname?: string;
  bio?: string;
}

export interface User {
  id: number;
  name: string;
}

/** Users as a store holds them: with fields the answer must never carry. */
function storedUser(id: number, name: string): User {
  return { id, name, password: 'hunter2', role: 'admin' } as User;
}

/** A service the controllers receive by injection: every default on includes DI. */
@Injectable()
export class Greeter {
  greet(name: string): string {
    return `hello ${name}`;
  }
}

/** A prototype with an enumerable property and a getter: JSON.stringify writes neither. */
const prototype = Object.defineProperties(
  {},
  {
    inherited: { value: 'from the prototype chain', enumerable: true },
    label: { get: () => 'a getter', enumerable: true },
  },
);

@Controller('/r')
export class RegressionController {
  constructor(readonly greeter: Greeter) {}

  // 1. a typed body echoed back, unchecked in non-strict mode
  @Post('/profile')
  save(@Body() p: Profile): Profile {
    return p;
  }

  @Post('/role')
  role(@Body('role') role: 'admin' | 'user'): { role: 'admin' | 'user' } {
    return { role };
  }

  // 2. the spec's own non-strict failure values
  @Get('/color')
  color(@Query('c', Color) c: Color): { c: Color } {
    return { c };
  }

  @Get('/object')
  object(@Query('o') o: { a: number }): { o: { a: number } } {
    return { o };
  }

  @Get('/language')
  language(@Query('x', ['en', 'fr']) x: string): { x: string } {
    return { x };
  }

  @Get('/query')
  query(@Req() req: KilnRequest) {
    return req.query;
  }

  // 3. a nested `object` or `{}` is written as it is; the rest stays filtered
  @Get('/meta')
  meta(): WithMeta {
    return { id: 1, password: 'hunter2', meta: { note: 'kept as is' }, extra: { also: 'kept' } } as WithMeta;
  }

  // 4. an ordinary stub: `things` is inferred as never[]
  @Get('/stub')
  stub() {
    return { things: [] };
  }

  // 5. inherited properties, getters on the prototype, the value's own key order
  @Get('/inherited')
  inherited(): { id: number; inherited: string; label: string } {
    return Object.assign(Object.create(prototype), { id: 1 }) as { id: number; inherited: string; label: string };
  }

  @Get('/order')
  order(): Optional {
    const value: Optional = { id: 1 };
    value.bio = 'b';
    value.nickname = this.greeter.greet('n');
    return value;
  }

  @Get('/infinity/:n')
  infinity(@Param('n') n: number): { n: number } {
    return { n };
  }

  // 6. an index signature: each value projected to its type (issue 34)
  @Get('/users-by-id')
  usersById(): { usersById: Record<string, User>; byRank: { [rank: number]: User }; count: number } {
    const usersById: Record<string, User> = { ann: storedUser(1, 'ann'), bob: storedUser(2, 'bob') };
    Object.defineProperty(usersById, '__proto__', { value: storedUser(3, 'eve'), enumerable: true });
    const byRank = { 1: storedUser(1, 'ann'), top: storedUser(2, 'bob') } as { [rank: number]: User };
    return { usersById, byRank, count: 3 };
  }

  // 7. a toJSON that returns a wrapper with a toJSON of its own; wrappers with a changed tag
  @Get('/wrappers')
  wrappers(): { n: number; tagged: number; s: string } {
    const boxed = Object.assign(new Number(7), { toJSON: () => ({ secret: 'hunter2' }) });
    const tagged = Object.defineProperty(new Number(8), Symbol.toStringTag, { value: 'Money' });
    const s = Object.defineProperty(new String('text'), Symbol.toStringTag, { value: 'Object' });
    return { n: { toJSON: () => boxed }, tagged, s } as unknown as { n: number; tagged: number; s: string };
  }

  @Get('/bigint')
  bigint(): { n: number } {
    return { n: 1n as unknown as number };
  }

  @Get('/cycle')
  cycle(): { self: unknown; id: number } {
    const value: { self?: unknown; id: number } = { id: 1 };
    value.self = value;
    return value as { self: unknown; id: number };
  }
}

/** One route per row of the conversion table; each handler returns `{ value }` with a declared type. */
@Controller('/c')
export class ConversionController {
  @Get('/string') string(@Query('v') v: string): { value: string } {
    return { value: v };
  }
  @Get('/boolean') boolean(@Query('v') v: boolean): { value: boolean } {
    return { value: v };
  }
  @Get('/number') number(@Query('v') v: number): { value: number } {
    return { value: v };
  }
  @Get('/date') date(@Query('v') v: Date): { value: Date } {
    return { value: v };
  }
  @Get('/object') object(@Query('v') v: { a: number }): { value: { a: number } } {
    return { value: v };
  }
  @Get('/strings') strings(@Query('v') v: string[]): { value: string[] } {
    return { value: v };
  }
  @Get('/numbers') numbers(@Query('v', [Number]) v: number[]): { value: number[] } {
    return { value: v };
  }
  @Get('/booleans') booleans(@Query('v', [Boolean]) v: boolean[]): { value: boolean[] } {
    return { value: v };
  }
  @Get('/dates') dates(@Query('v', [Date]) v: Date[]): { value: Date[] } {
    return { value: v };
  }
  @Get('/values') values(@Query('v', ['x', 'y']) v: string): { value: string } {
    return { value: v };
  }
  @Get('/enum') enumeration(@Query('v', Level) v: Level): { value: Level } {
    return { value: v };
  }
  @Get('/string-enum') stringEnum(@Query('v', Color) v: Color): { value: Color } {
    return { value: v };
  }
  @Post('/body') body(@Body() body: { name: string }): { value: { name: string } } {
    return { value: body };
  }
}
