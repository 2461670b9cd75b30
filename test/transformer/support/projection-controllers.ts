// Thirty-odd declared types and one route per type and per list of it, compiled with typed
// responses on: test/transformer/projection-property.test.ts sends fast-check's values through the
// serialisers the build wrote for them (in process, and some over HTTP), against a reference
// projection written in the test. Each handler returns whatever the test put in `current`.
import { Controller, Get } from '@kiln/core';
import { assertingSerializer, type Serializer } from '@kiln/core/binding';
import typia, { type tags } from 'typia';

export interface Address {
  street: string;
  city: string;
}
export enum Kind {
  A = 'a',
  B = 'b"quoted',
}
export enum Level {
  Low = 1,
  High = 2,
}
export interface Circle {
  kind: 'circle';
  radius: number;
}
export interface Square {
  kind: 'square';
  side: number;
}
export interface Account {
  id: number;
  name: string;
  address: Address;
}
export interface Page<T> {
  items: T[];
  total: number;
  next?: string;
}
export interface Tree {
  value: number;
  children: Tree[];
}
/** A class with toJSON: what it writes is its own business (the part is sent as it is). */
export class Money {
  constructor(readonly cents: number) {}
  toJSON(): string {
    return (this.cents / 100).toFixed(2);
  }
}

export type T01 = { id: number; name: string; active: boolean };
export type T02 = { id: number; address: Address };
export type T03 = { id: number; nickname?: string; bio?: string | null };
export type T04 = { role: 'admin' | 'user'; flag: true; level: 1 | 2 | 3 };
export type T05 = { kind: Kind; level: Level };
export type T06 = string;
export type T07 = 'a' | 'b' | null;
export type T08 = number | boolean;
export type T09 = { pair: [string, number] };
export type T10 = [number, ...Address[]];
export type T11 = { tags: string[]; scores: readonly number[] };
export type T12 = { items: (string | Address)[] };
export type T13 = Circle | Square;
export type T14 = { v: Address | string };
export type T15 = { v: Circle | null | (Square | Address)[] };
export type T16 = Partial<Account>;
export type T17 = Pick<Account, 'id' | 'name'>;
export type T18 = Page<Address>;
export type T19 = Tree;
export type T20 = Address & { id: number };
export type T21 = { id: number; byName: Record<string, Address> };
export type T22 = { id: number; meta: object };
export type T23 = { id: number; extra: {} };
export type T24 = { id: number; data: unknown };
export type T25 = { id: number; data: any };
export type T26 = { title: string; at: Date; reminders: Date[] };
export type T27 = { things: never[] };
export type T28 = { label: string; price: Money };
export type T29 = { email: string & tags.Format<'email'> };
export type T30 = { 'a"b': string; 'back\\slash': number; 0: string; ['__proto__']: string };
export type T31 = { [key: string]: number };
export type T32 = { id: number; describe(): string };
export type T33 = { owners?: Address[] | null };
export type T34 = Readonly<Record<'a' | 'b', Address>>;
export type T35 = Address | null;
export type T36 = { inner: { deeper: { deepest: Address[] } }; n: number };
export type T37 = { id: number; [key: string]: Address | number };
export type T38 = { [rank: number]: Address };

let current: unknown;
/** What the next handler call returns. */
export function returnNext(value: unknown): void {
  current = value;
}

@Controller('/p')
export class ProjectionController {
  @Get('/t01')
  t01(): T01 {
    return current as T01;
  }
  @Get('/t01/list')
  t01List(): T01[] {
    return current as T01[];
  }
  @Get('/t02')
  t02(): T02 {
    return current as T02;
  }
  @Get('/t02/list')
  t02List(): T02[] {
    return current as T02[];
  }
  @Get('/t03')
  t03(): T03 {
    return current as T03;
  }
  @Get('/t03/list')
  t03List(): T03[] {
    return current as T03[];
  }
  @Get('/t04')
  t04(): T04 {
    return current as T04;
  }
  @Get('/t04/list')
  t04List(): T04[] {
    return current as T04[];
  }
  @Get('/t05')
  t05(): T05 {
    return current as T05;
  }
  @Get('/t05/list')
  t05List(): T05[] {
    return current as T05[];
  }
  @Get('/t06')
  t06(): T06 {
    return current as T06;
  }
  @Get('/t06/list')
  t06List(): T06[] {
    return current as T06[];
  }
  @Get('/t07')
  t07(): T07 {
    return current as T07;
  }
  @Get('/t07/list')
  t07List(): T07[] {
    return current as T07[];
  }
  @Get('/t08')
  t08(): T08 {
    return current as T08;
  }
  @Get('/t08/list')
  t08List(): T08[] {
    return current as T08[];
  }
  @Get('/t09')
  t09(): T09 {
    return current as T09;
  }
  @Get('/t09/list')
  t09List(): T09[] {
    return current as T09[];
  }
  @Get('/t10')
  t10(): T10 {
    return current as T10;
  }
  @Get('/t10/list')
  t10List(): T10[] {
    return current as T10[];
  }
  @Get('/t11')
  t11(): T11 {
    return current as T11;
  }
  @Get('/t11/list')
  t11List(): T11[] {
    return current as T11[];
  }
  @Get('/t12')
  t12(): T12 {
    return current as T12;
  }
  @Get('/t12/list')
  t12List(): T12[] {
    return current as T12[];
  }
  @Get('/t13')
  t13(): T13 {
    return current as T13;
  }
  @Get('/t13/list')
  t13List(): T13[] {
    return current as T13[];
  }
  @Get('/t14')
  t14(): T14 {
    return current as T14;
  }
  @Get('/t14/list')
  t14List(): T14[] {
    return current as T14[];
  }
  @Get('/t15')
  t15(): T15 {
    return current as T15;
  }
  @Get('/t15/list')
  t15List(): T15[] {
    return current as T15[];
  }
  @Get('/t16')
  t16(): T16 {
    return current as T16;
  }
  @Get('/t16/list')
  t16List(): T16[] {
    return current as T16[];
  }
  @Get('/t17')
  t17(): T17 {
    return current as T17;
  }
  @Get('/t17/list')
  t17List(): T17[] {
    return current as T17[];
  }
  @Get('/t18')
  t18(): T18 {
    return current as T18;
  }
  @Get('/t18/list')
  t18List(): T18[] {
    return current as T18[];
  }
  @Get('/t19')
  t19(): T19 {
    return current as T19;
  }
  @Get('/t19/list')
  t19List(): T19[] {
    return current as T19[];
  }
  @Get('/t20')
  t20(): T20 {
    return current as T20;
  }
  @Get('/t20/list')
  t20List(): T20[] {
    return current as T20[];
  }
  @Get('/t21')
  t21(): T21 {
    return current as T21;
  }
  @Get('/t21/list')
  t21List(): T21[] {
    return current as T21[];
  }
  @Get('/t22')
  t22(): T22 {
    return current as T22;
  }
  @Get('/t22/list')
  t22List(): T22[] {
    return current as T22[];
  }
  @Get('/t23')
  t23(): T23 {
    return current as T23;
  }
  @Get('/t23/list')
  t23List(): T23[] {
    return current as T23[];
  }
  @Get('/t24')
  t24(): T24 {
    return current as T24;
  }
  @Get('/t24/list')
  t24List(): T24[] {
    return current as T24[];
  }
  @Get('/t25')
  t25(): T25 {
    return current as T25;
  }
  @Get('/t25/list')
  t25List(): T25[] {
    return current as T25[];
  }
  @Get('/t26')
  t26(): T26 {
    return current as T26;
  }
  @Get('/t26/list')
  t26List(): T26[] {
    return current as T26[];
  }
  @Get('/t27')
  t27(): T27 {
    return current as T27;
  }
  @Get('/t27/list')
  t27List(): T27[] {
    return current as T27[];
  }
  @Get('/t28')
  t28(): T28 {
    return current as T28;
  }
  @Get('/t28/list')
  t28List(): T28[] {
    return current as T28[];
  }
  @Get('/t29')
  t29(): T29 {
    return current as T29;
  }
  @Get('/t29/list')
  t29List(): T29[] {
    return current as T29[];
  }
  @Get('/t30')
  t30(): T30 {
    return current as T30;
  }
  @Get('/t30/list')
  t30List(): T30[] {
    return current as T30[];
  }
  @Get('/t31')
  t31(): T31 {
    return current as T31;
  }
  @Get('/t31/list')
  t31List(): T31[] {
    return current as T31[];
  }
  @Get('/t32')
  t32(): T32 {
    return current as T32;
  }
  @Get('/t32/list')
  t32List(): T32[] {
    return current as T32[];
  }
  @Get('/t33')
  t33(): T33 {
    return current as T33;
  }
  @Get('/t33/list')
  t33List(): T33[] {
    return current as T33[];
  }
  @Get('/t34')
  t34(): T34 {
    return current as T34;
  }
  @Get('/t34/list')
  t34List(): T34[] {
    return current as T34[];
  }
  @Get('/t35')
  t35(): T35 {
    return current as T35;
  }
  @Get('/t35/list')
  t35List(): T35[] {
    return current as T35[];
  }
  @Get('/t36')
  t36(): T36 {
    return current as T36;
  }
  @Get('/t36/list')
  t36List(): T36[] {
    return current as T36[];
  }
  @Get('/t37')
  t37(): T37 {
    return current as T37;
  }
  @Get('/t37/list')
  t37List(): T37[] {
    return current as T37[];
  }
  @Get('/t38')
  t38(): T38 {
    return current as T38;
  }
  @Get('/t38/list')
  t38List(): T38[] {
    return current as T38[];
  }
  /** A generic handler: its type parameter is sent as it is. */
  @Get('/generic')
  generic<T>(): { value: T } {
    return current as { value: T };
  }
}

/**
 * The 'assert' form of each type's serialiser: typia's check written at build time, then the same
 * projection. Not T30: typia's createAssert writes invalid JavaScript for a property name holding a quote.
 */
export function assertingSerializers(serializers: (name: string) => Serializer | undefined): Partial<Record<string, Serializer>> {
  const stringify: Serializer = (value) => JSON.stringify(value) ?? 'null';
  const asserting = (name: string, assert: (value: unknown) => unknown): Serializer =>
    assertingSerializer(assert, serializers(name) ?? stringify);
  return {
    t01: asserting('t01', typia.createAssert<T01>()),
    t02: asserting('t02', typia.createAssert<T02>()),
    t03: asserting('t03', typia.createAssert<T03>()),
    t04: asserting('t04', typia.createAssert<T04>()),
    t05: asserting('t05', typia.createAssert<T05>()),
    t06: asserting('t06', typia.createAssert<T06>()),
    t07: asserting('t07', typia.createAssert<T07>()),
    t08: asserting('t08', typia.createAssert<T08>()),
    t09: asserting('t09', typia.createAssert<T09>()),
    t10: asserting('t10', typia.createAssert<T10>()),
    t11: asserting('t11', typia.createAssert<T11>()),
    t12: asserting('t12', typia.createAssert<T12>()),
    t13: asserting('t13', typia.createAssert<T13>()),
    t14: asserting('t14', typia.createAssert<T14>()),
    t15: asserting('t15', typia.createAssert<T15>()),
    t16: asserting('t16', typia.createAssert<T16>()),
    t17: asserting('t17', typia.createAssert<T17>()),
    t18: asserting('t18', typia.createAssert<T18>()),
    t19: asserting('t19', typia.createAssert<T19>()),
    t20: asserting('t20', typia.createAssert<T20>()),
    t21: asserting('t21', typia.createAssert<T21>()),
    t22: asserting('t22', typia.createAssert<T22>()),
    t23: asserting('t23', typia.createAssert<T23>()),
    t24: asserting('t24', typia.createAssert<T24>()),
    t25: asserting('t25', typia.createAssert<T25>()),
    t26: asserting('t26', typia.createAssert<T26>()),
    t27: asserting('t27', typia.createAssert<T27>()),
    t28: asserting('t28', typia.createAssert<T28>()),
    t29: asserting('t29', typia.createAssert<T29>()),
    t31: asserting('t31', typia.createAssert<T31>()),
    t32: asserting('t32', typia.createAssert<T32>()),
    t33: asserting('t33', typia.createAssert<T33>()),
    t34: asserting('t34', typia.createAssert<T34>()),
    t35: asserting('t35', typia.createAssert<T35>()),
    t36: asserting('t36', typia.createAssert<T36>()),
    t37: asserting('t37', typia.createAssert<T37>()),
    t38: asserting('t38', typia.createAssert<T38>()),
  };
}
