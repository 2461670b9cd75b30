import { Controller, Get, Header, Param, Query } from '@kiln/core';
import { Level, Sort } from './types.js';

/** A value as JSON can show it: NaN, Invalid Date and undefined are named, not lost. */
function shown(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return value.map(shown);
  return value;
}

/** The conversion table: every declared type, from the query, the path and headers. */
@Controller('/convert')
export class ConversionController {
  @Get('/scalars')
  scalars(
    @Query('s') s?: string,
    @Query('b') b?: boolean,
    @Query('n') n?: number,
    @Query('d') d?: Date,
    @Query('o') o?: { a: number },
    @Query('e') e?: Sort,
    @Query('l') l?: Level,
    @Query('u') u?: 'x' | 'y',
  ) {
    return { s: shown(s), b: shown(b), n: shown(n), d: shown(d), o: shown(o), e: shown(e), l: shown(l), u: shown(u) };
  }

  @Get('/arrays')
  arrays(@Query('ss') ss: string[], @Query('ns') ns: number[], @Query('bs') bs: boolean[], @Query('ds') ds: Date[]) {
    return { ss: shown(ss), ns: shown(ns), bs: shown(bs), ds: shown(ds) };
  }

  @Get('/required')
  required(@Query('page') page: number, @Query('size') size = 20) {
    return { page: shown(page), size };
  }

  @Get('/params/:n/:d')
  params(@Param('n') n: number, @Param('d') d: Date) {
    return { n: shown(n), d: shown(d) };
  }

  @Get('/headers')
  headers(@Header('x-count') count?: number, @Header('x-ids') ids?: number[], @Header('x-flag') flag?: boolean) {
    return { count: shown(count), ids: shown(ids), flag: shown(flag) };
  }
}
