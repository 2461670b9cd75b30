// Typed @Body routes for body-validation.test.ts. Compiled by test/tsconfig.json, whose plugins
// list @kiln/core/transformer and typia's transformer: each typed body gets a typia validator at build time.
import { Body, Controller, Post, Query } from '@kiln/core';
import type { tags } from 'typia';
import { out } from './describe.js';

interface Address {
  street: string;
  city: string;
  zip?: string & tags.Pattern<'^[0-9]{5}$'>;
}

/** Nested object, array of objects, optional field, tags. */
export interface NewUser {
  name: string & tags.MaxLength<20>;
  email: string & tags.Format<'email'>;
  age: number & tags.Minimum<0>;
  nickname?: string;
  address: Address;
  previous: Address[];
}

interface Circle {
  kind: 'circle';
  radius: number & tags.Minimum<0>;
}
interface Square {
  kind: 'square';
  side: number;
}
/** A discriminated union. */
export type Shape = Circle | Square;

/** Extra properties are rejected, unless the type has an index signature. */
export interface Labels {
  id: number;
  [label: string]: unknown;
}

/** A class-typed body is validated by its data properties; the handler receives a plain object. */
export class Comment {
  text!: string;
  stars?: number & tags.Minimum<1> & tags.Maximum<5>;
  shout(): string {
    return this.text.toUpperCase();
  }
}

/** A urlencoded form: every value is a string (a repeated key gives an array). */
export interface Search {
  q: string;
  page?: string & tags.Pattern<'^[0-9]+$'>;
}

@Controller('/v')
export class ValidatedController {
  @Post('/user') user(@Body() user: NewUser) {
    return out(user);
  }
  @Post('/optional-user') optionalUser(@Body() user?: NewUser) {
    return out(user);
  }
  @Post('/users') users(@Body() users: NewUser[]) {
    return out(users.length);
  }
  @Post('/shape') shape(@Body() shape: Shape) {
    return out(shape);
  }
  @Post('/labels') labels(@Body() labels: Labels) {
    return out(labels);
  }
  @Post('/comment') comment(@Body() comment: Comment) {
    return out({ instance: comment instanceof Comment, text: comment.text });
  }
  @Post('/text') text(@Body() text: string & tags.MinLength<3>) {
    return out(text);
  }
  @Post('/number') number(@Body() n: number | null) {
    return out(n);
  }
  @Post('/search') search(@Body() search: Search) {
    return out(search);
  }
  @Post('/field') field(@Body('user') user: NewUser, @Body('note') note?: string) {
    return out({ name: user.name, note });
  }
  @Post('/fields') fields(
    @Body('name') name: string & tags.MinLength<1>,
    @Query('n') n: number | undefined,
    @Body('age') age?: number & tags.Minimum<0>,
  ) {
    return out({ name, n, age });
  }
  @Post('/odd-field') oddField(@Body('x-count') count: number) {
    return out(count);
  }
  @Post('/any') any(@Body() body: any) {
    return out(body);
  }
  @Post('/unknown') unknown(@Body() body: unknown, @Body('n') n: unknown) {
    return out({ body, n });
  }
  @Post('/with-query') withQuery(@Body() shape: Shape, @Query('n') n?: number) {
    return out({ shape, n });
  }
}

export const bodyValidationControllers = [ValidatedController];
