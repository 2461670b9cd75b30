import {
  Body,
  compression,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpError,
  HttpStatus,
  Inject,
  Param,
  Post,
  Put,
  Req,
  Response as KilnResponse,
  type KilnRequest,
} from '@kiln/core';
import { RequireApiKey } from './require-api-key.js';
import { GREETING, Shelf } from './services.js';
import type { Book, NewBook } from './types.js';

/** Typed bodies and responses, errors and their bodies, injection. */
@Controller('/books')
export class BooksController {
  constructor(
    private readonly shelf: Shelf,
    @Inject(GREETING) private readonly greeting: string,
  ) {}

  @Get('/greeting')
  hello() {
    return { greeting: this.greeting };
  }

  /** A typed response: only Book's properties are written. */
  @Get('/:id')
  get(@Param('id') id: number): Book {
    const book = this.shelf.get(id);
    if (book === undefined) throw new HttpError(404, `No book ${id}`, { id });
    return book;
  }

  @Post('/', RequireApiKey)
  @HttpStatus(HttpCode.CREATED)
  create(@Body() book: NewBook): Book {
    return { id: 3, title: book.title, year: book.year };
  }

  /** A form body, field by field. */
  @Post('/form')
  form(@Body('title') title: string, @Body('year') year: number) {
    return { title, year };
  }

  /** A text body. */
  @Put('/:id/note')
  note(@Param('id') id: number, @Body() note: string) {
    return { id, note };
  }

  @Delete('/:id')
  remove(@Param('id') id: number): void {
    if (id === 0) throw new HttpError(409, 'Book 0 cannot be removed');
  }

  @Get('/fail/plain')
  fail(): never {
    throw new Error('an internal detail the client must not see');
  }

  @Get('/raw/response')
  raw() {
    return new Response('made by hand', { status: 202, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-made': 'by-hand' } });
  }

  /** Kiln's own Response keeps its body out of the platform's slot: every runtime's server must still send it. */
  @Get('/raw/kiln')
  kilnResponse() {
    return new KilnResponse('kept by Kiln', { status: 203, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }

  @Get('/raw/kiln-json')
  kilnJson() {
    return KilnResponse.json({ kept: true });
  }

  /** compression() on this route: gzip when asked, from every runtime's server alike. */
  @Get('/compressed/list', compression({ threshold: 0, encodings: ['gzip'] }))
  compressed() {
    return Array.from({ length: 50 }, (_, i) => ({ id: i, title: `Book ${i}` }));
  }

  @Get('/request/info')
  info(@Req() req: KilnRequest) {
    return { method: req.method, path: req.path, query: req.query, cookies: req.cookies, ip: req.ip ?? null };
  }
}
