// Controllers whose return types are serialised by the projecting serialisers the build writes (typed
// responses). Every handler returns more than its type declares, cast the way real code ends up
// with such values (a database row, a spread, an `as`), so the tests can see what is left out.
import { Controller, Get, HttpStatus, Middleware, Query } from '@kiln/core';

export interface Address {
  street: string;
  city: string;
  zip?: string;
}
export interface PublicUser {
  id: number;
  name: string;
  address: Address;
}
export interface Profile {
  id: number;
  nickname?: string;
  bio?: string | null;
}
export interface Circle {
  kind: 'circle';
  radius: number;
}
export interface Square {
  kind: 'square';
  side: number;
}
export enum Role {
  Admin = 'admin',
  Member = 'member',
}
export enum Level {
  Low = 1,
  High = 2,
}
export interface Member {
  name: string;
  role: Role;
  level: Level;
}
export interface Event {
  title: string;
  at: Date;
  reminders: Date[];
}

/** A stored row: the handler's declared type leaves out its secrets. */
export const userRow = {
  id: 7,
  name: 'Ada',
  password: 'hunter2',
  passwordHash: '$2b$...',
  address: { street: '1 Main St', city: 'Springfield', internalNote: 'vip' },
};

@Controller('/s')
export class SerializedController {
  @Get('/nested')
  nested(): PublicUser {
    return userRow;
  }

  @Get('/optional')
  optional(@Query('which') which: string): Profile {
    if (which === 'none') return { id: 1, extra: true } as Profile;
    if (which === 'null') return { id: 2, bio: null, nickname: undefined };
    return { id: 3, nickname: 'countess', bio: 'math', extra: true } as Profile;
  }

  @Get('/union')
  union(@Query('kind') kind: string): Circle | Square {
    const circle = { kind: 'circle' as const, radius: 2, area: 12.56 };
    const square = { kind: 'square' as const, side: 3, colour: 'red' };
    return kind === 'circle' ? circle : square;
  }

  @Get('/scalars')
  scalars(@Query('which') which: string): number | string | null {
    return which === 'number' ? 42.5 : which === 'string' ? 'he said "hi"\n' : null;
  }

  @Get('/array')
  array(): PublicUser[] {
    return [userRow, { ...userRow, id: 8, name: 'Grace' }, { ...userRow, id: 9, name: 'Édith 🎉' }];
  }

  @Get('/enum')
  enumeration(): Member[] {
    return [
      { name: 'a', role: Role.Admin, level: Level.High, token: 't' },
      { name: 'b', role: Role.Member, level: Level.Low },
    ] as Member[];
  }

  @Get('/date')
  date(): Event {
    return { title: 'launch', at: new Date(Date.UTC(2026, 10, 23, 18, 30)), reminders: [new Date(0)], secret: 1 } as Event;
  }

  @Get('/inferred')
  inferred() {
    const row = { id: 1, label: 'x' };
    return { id: row.id, label: row.label, at: new Date(0) };
  }

  @Get('/async')
  async asynchronous(): Promise<PublicUser> {
    return userRow;
  }

  @Get('/created')
  @HttpStatus(201)
  created(): PublicUser {
    return userRow;
  }

  /** Sent whole, with JSON.stringify: the route opts out. @jsonStringify */
  @Get('/opted-out')
  optedOut(): PublicUser {
    return userRow;
  }

  @Get('/any')
  anything(): any {
    return userRow;
  }

  @Get('/unknown')
  unknownValue(): unknown {
    return userRow;
  }

  @Get('/response')
  response(): Response | PublicUser {
    return Response.json(userRow);
  }

  @Get('/nan')
  notANumber(): { n: number; m: number } {
    return { n: Number.NaN, m: Number.POSITIVE_INFINITY };
  }
}

/** A middleware that answers with its own value: the route's type says nothing about it. */
@Middleware()
export class ShortCircuit {
  use() {
    return { from: 'middleware', password: 'shown: not the handler value' };
  }
}

@Controller('/m', ShortCircuit)
export class ShortCircuitedController {
  @Get('/')
  get(): { id: number } {
    return { id: 1 };
  }
}
