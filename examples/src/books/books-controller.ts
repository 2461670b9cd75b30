import { Body, Controller, Delete, Get, Header, HttpCode, HttpError, HttpStatus, Param, Post, Query } from '@kiln/core';
import { RequireApiKey } from '../middleware/require-api-key.js';
import { Genre, Stock, type Book, type NewBook, type SortOrder } from './book.js';
import { BookStore } from './book-store.js';

@Controller('/books')
export class BooksController {
  // Injected at start-up: @kiln/core/transformer reads the declared type and writes the dependency list.
  constructor(private readonly store: BookStore) {}

  /** `GET /books?genre=science&tags=popular&tags=rome&after=2000-01-01&sort=desc&limit=10` */
  @Get('/')
  list(
    @Query('genre') genre?: Genre,
    @Query('tags') tags: string[] = [],
    @Query('after') after?: Date,
    @Query('sort') sort: SortOrder = 'asc',
    @Query('limit') limit = 20,
    @Query('maxPrice') maxPrice?: number,
  ) {
    const books = this.store.all()
      .filter((b) => genre === undefined || b.genre === genre)
      .filter((b) => tags.every((t) => b.tags.includes(t)))
      .filter((b) => after === undefined || b.published > after)
      .filter((b) => maxPrice === undefined || b.price <= maxPrice)
      .sort((a, b) => (sort === 'asc' ? 1 : -1) * a.title.localeCompare(b.title));
    return books.slice(0, limit);
  }

  /** `GET /books/by-id?ids=1&ids=3` */
  @Get('/by-id')
  byIds(@Query('ids') ids: number[]) {
    return ids.map((id) => this.store.get(id) ?? null);
  }

  @Get('/:id')
  get(@Param('id') id: number, @Header('accept-language') language?: string) {
    const book = this.#find(id);
    return { ...book, language: language ?? 'en' };
  }

  /** `GET /books/:id/availability?stock=2`: numeric enums arrive as numbers. */
  @Get('/:id/availability')
  availability(@Param('id') id: number, @Query('stock') stock: Stock = Stock.Low) {
    this.#find(id);
    return { id, stock: Stock[stock] };
  }

  @Post('/', RequireApiKey)
  @HttpStatus(HttpCode.CREATED)
  create(@Body() book: NewBook) {
    return this.store.add(book);
  }

  @Delete('/:id', RequireApiKey)
  @HttpStatus(HttpCode.NO_CONTENT)
  remove(@Param('id') id: number) {
    if (!this.store.remove(id)) throw new HttpError(404, `Book ${id} not found`);
  }

  /** A download: any non-JSON answer is a `Response` with its own Content-Type. */
  @Get('/:id/export.csv')
  exportCsv(@Param('id') id: number) {
    const book = this.#find(id);
    const csv = `id,title,author,price\n${book.id},"${book.title}","${book.author}",${book.price}\n`;
    return new Response(csv, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="book-${book.id}.csv"` },
    });
  }

  #find(id: number): Book {
    const book = this.store.get(id);
    if (book === undefined) throw new HttpError(404, `Book ${id} not found`);
    return book;
  }
}
