// One route per row of the conversion table. The decorators below are compiled by
// @kiln/core/transformer (test/tsconfig.json's plugin); each handler answers its bound value described.
import { Body, Controller, Get, Header, HttpError, Middleware, Param, Post, Query, Req, type KilnRequest } from '@kiln/core';
import { Ip, Q, RequestPath } from './custom-decorators.js';
import { out } from './describe.js';
import type { tags } from 'typia';

export enum Sort {
  Asc = 'asc',
  Desc = 'desc',
}
export enum Level {
  Low,
  Mid,
  High,
}
const shapes = ['circle', 'square'] as const;

@Controller('/q')
export class QueryController {
  @Get('/string') string(@Query('v') v?: string) {
    return out(v);
  }
  @Get('/boolean') boolean(@Query('v') v: boolean) {
    return out(v);
  }
  @Get('/number') number(@Query('v') v?: number) {
    return out(v);
  }
  @Get('/required-number') requiredNumber(@Query('v') v: number) {
    return out(v);
  }
  @Get('/required-string') requiredString(@Query('v') v: string) {
    return out(v);
  }
  @Get('/date') date(@Query('v') v?: Date) {
    return out(v);
  }
  @Get('/object') object(@Query('v') v?: { a: number }) {
    return out(v);
  }
  @Get('/strings') strings(@Query('v') v: string[]) {
    return out(v);
  }
  @Get('/numbers') numbers(@Query('v') v: number[]) {
    return out(v);
  }
  @Get('/booleans') booleans(@Query('v') v: boolean[]) {
    return out(v);
  }
  @Get('/dates') dates(@Query('v') v: Date[]) {
    return out(v);
  }
  @Get('/objects') objects(@Query('v') v: { a: number }[]) {
    return out(v);
  }
  @Get('/string-enum') stringEnum(@Query('v') v?: Sort) {
    return out(v);
  }
  @Get('/numeric-enum') numericEnum(@Query('v') v?: Level) {
    return out(v);
  }
  @Get('/string-union') stringUnion(@Query('v') v?: 'a' | 'b' | 'c') {
    return out(v);
  }
  @Get('/number-union') numberUnion(@Query('v') v?: 10 | 20) {
    return out(v);
  }
  @Get('/enum-array') enumArray(@Query('v') v: Sort[]) {
    return out(v);
  }
  @Get('/items-number') itemsNumber(@Query('v', [Number]) v: unknown) {
    return out(v);
  }
  @Get('/items-date') itemsDate(@Query('v', [Date]) v: Date[]) {
    return out(v);
  }
  @Get('/items-values') itemsValues(@Query('v', ['x', 'y']) v?: string) {
    return out(v);
  }
  @Get('/items-const') itemsConst(@Query('v', shapes) v?: string) {
    return out(v);
  }
  @Get('/items-enum') itemsEnum(@Query('v', Level) v?: Level) {
    return out(v);
  }
  @Get('/undefined-union') undefinedUnion(@Query('v') v: number | undefined) {
    return out(v);
  }
  @Get('/default') withDefault(@Query('v') v: number = 7) {
    return out(v);
  }
  @Get('/unknown') unknownValue(@Query('v') v: unknown) {
    return out(v);
  }
  @Get('/two') two(@Query('a') a: number, @Query('b') b?: string) {
    return { a: out(a).value, b: out(b).value };
  }
}

@Controller('/p')
export class ParamController {
  @Get('/n/:id') number(@Param('id') id: number) {
    return out(id);
  }
  @Get('/s/:name') string(@Param('name') name: string) {
    return out(name);
  }
  @Get('/d/:when') date(@Param('when') when: Date) {
    return out(when);
  }
  @Get('/e/:sort') sort(@Param('sort') sort: Sort) {
    return out(sort);
  }
}

@Controller('/h')
export class HeaderController {
  @Get('/string') string(@Header('X-Name') v?: string) {
    return out(v);
  }
  @Get('/number') number(@Header('X-Count') v?: number) {
    return out(v);
  }
  @Get('/required') required(@Header('x-count') v: number) {
    return out(v);
  }
  @Get('/boolean') boolean(@Header('x-flag') v: boolean) {
    return out(v);
  }
  @Get('/numbers') numbers(@Header('x-ids') v: number[]) {
    return out(v);
  }
  @Get('/strings') strings(@Header('x-tags') v: string[]) {
    return out(v);
  }
  @Get('/dates') dates(@Header('x-days') v: Date[]) {
    return out(v);
  }
}

@Controller('/b')
export class BodyController {
  @Post('/whole') whole(@Body() body?: unknown) {
    return out(body);
  }
  @Post('/required') required(@Body() body: { name: string }) {
    return out(body);
  }
  @Post('/field') field(@Body('name') name?: string) {
    return out(name);
  }
  @Post('/required-field') requiredField(@Body('name') name: string) {
    return out(name);
  }
  @Post('/number') number(@Body('n') n?: number) {
    return out(n);
  }
  @Post('/boolean') boolean(@Body('on') on?: boolean) {
    return out(on);
  }
  @Post('/enum') sort(@Body('sort') sort?: Sort) {
    return out(sort);
  }
  @Post('/union') union(@Body('size') size?: 'S' | 'M') {
    return out(size);
  }
  @Post('/text') text(@Body() text?: string) {
    return out(text);
  }
  @Post('/both') both(@Body() body: unknown, @Body('name') name: unknown, @Query('n') n?: number) {
    return { body: out(body).value, name: out(name).value, n: out(n).value };
  }
}

@Controller('/r')
export class RequestController {
  @Get('/req') request(@Req() req: KilnRequest) {
    return { method: req.method, path: req.path };
  }
  @Get('/ip') ip(@Ip() ip?: string) {
    return out(ip);
  }
  @Get('/path') path(@RequestPath() path: string) {
    return out(path);
  }
  @Get('/alias') alias(@Q('v') v?: number) {
    return out(v);
  }
}

@Middleware()
export class RequireToken {
  use(@Header('x-token') token: string | undefined, @Req() req: KilnRequest) {
    if (token !== 'secret') throw new HttpError(401, `Bad token for ${req.path}`);
  }
}

@Controller('/m', RequireToken)
export class GuardedController {
  @Get('/') ok(@Query('n') n?: number) {
    return out(n);
  }
}

/** Routes declared on a base class: the binder travels with the inherited method. */
abstract class ReadController {
  @Get('/:id') read(@Param('id') id: number) {
    return out(id);
  }
}

@Controller('/inherited')
export class InheritedController extends ReadController {}

/** typia tags on scalars and array items: converted as the base type, then checked under strictValidation. */
@Controller('/t')
export class TaggedController {
  @Get('/uint32') uint32(@Query('v') v?: number & tags.Type<'uint32'>) {
    return out(v);
  }
  @Get('/range') range(@Query('limit') limit?: number & tags.Minimum<1> & tags.Maximum<100>) {
    return out(limit);
  }
  @Get('/email') email(@Query('v') v?: string & tags.Format<'email'>) {
    return out(v);
  }
  @Get('/uuid') uuid(@Query('v') v?: string & tags.Format<'uuid'>) {
    return out(v);
  }
  @Get('/code') code(@Query('v') v?: string & tags.MinLength<3> & tags.Pattern<'^[A-Z]+$'>) {
    return out(v);
  }
  @Get('/required') required(@Query('v') v: number & tags.Type<'int32'>) {
    return out(v);
  }
  @Get('/int32s') int32s(@Query('v') v: (number & tags.Type<'int32'>)[]) {
    return out(v);
  }
  @Get('/emails') emails(@Header('x-emails') v: (string & tags.Format<'email'>)[]) {
    return out(v);
  }
  @Get('/p/:id') param(@Param('id') id: number & tags.Type<'uint32'>) {
    return out(id);
  }
  @Get('/header') header(@Header('x-limit') v?: number & tags.ExclusiveMaximum<10>) {
    return out(v);
  }
}

interface Filter {
  age: number;
  name?: string;
}
interface Meta {
  kind: 'a' | 'b';
  size: number;
}
interface Wide {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  g: number;
  h: number;
  i: number;
  j: number;
  k: number;
  l: number;
}

/** Object and tuple parameters: JSON text parsed, then checked against the declared type (null on failure without strictValidation). */
@Controller('/o')
export class ObjectController {
  @Get('/filter') filter(@Query('filter') filter?: Filter) {
    return out(filter);
  }
  @Get('/tuple') tuple(@Query('t') t?: [number, string]) {
    return out(t);
  }
  @Get('/meta') meta(@Header('x-meta') meta?: Meta) {
    return out(meta);
  }
  @Get('/filters') filters(@Query('f') f: Filter[]) {
    return out(f);
  }
  @Get('/required') required(@Query('filter') filter: Filter) {
    return out(filter);
  }
  @Get('/wide') wide(@Query('w') w?: Wide) {
    return out(w);
  }
  @Get('/record') record(@Query('r') r?: Record<string, number>) {
    return out(r);
  }
}

export const conversionControllers = [
  QueryController,
  ParamController,
  HeaderController,
  BodyController,
  RequestController,
  GuardedController,
  InheritedController,
  TaggedController,
  ObjectController,
];
