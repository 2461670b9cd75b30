import {
  Body,
  Controller,
  Delete,
  Get,
  HandlerTimeout,
  Header,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
  Req,
  type KilnRequest,
} from '@kiln/core';
import { Roles } from '../auth/roles.js';
import { RequireApiKey } from '../middleware/require-api-key.js';
import { BookNotFound, Genre, Stock, type Book, type CoverUpload, type NewBook, type SortOrder } from './book.js';
import { BookStore } from './book-store.js';
import { askCourier } from './courier.js';

/** The catalogue: search, read, add and remove books. */
@Controller('/books')
export class BooksController {
  // Injected at start-up: @kiln/core/transformer reads the declared type and writes the dependency list.
  constructor(private readonly store: BookStore) {}

  /**
   * Search the catalogue
   *
   * `GET /books?genre=science&tags=popular&tags=rome&after=2000-01-01&sort=desc&limit=10`
   * @param genre only books of this genre
   * @param tags only books that carry every one of these tags (repeat the key)
   * @param after only books published after this date
   * @param sort order by title
   * @param limit at most this many books
   * @param maxPrice only books at this price or below
   */
  @Get('/')
  list(
    @Query('genre') genre?: Genre,
    @Query('tags') tags: string[] = [],
    @Query('after') after?: Date,
    @Query('sort') sort: SortOrder = 'asc',
    @Query('limit') limit = 20,
    @Query('maxPrice') maxPrice?: number,
  ) {
    const books = this.store
      .all()
      .filter((b) => genre === undefined || b.genre === genre)
      .filter((b) => tags.every((t) => b.tags.includes(t)))
      .filter((b) => after === undefined || b.published > after)
      .filter((b) => maxPrice === undefined || b.price <= maxPrice)
      .sort((a, b) => (sort === 'asc' ? 1 : -1) * a.title.localeCompare(b.title));
    return books.slice(0, limit);
  }

  /**
   * Several books by id
   *
   * `GET /books/by-id?ids=1&ids=3`: a `null` in place of each id that is not in the catalogue.
   * @param ids the books' ids (repeat the key)
   */
  @Get('/by-id')
  byIds(@Query('ids') ids: number[]) {
    return ids.map((id) => this.store.get(id) ?? null);
  }

  /**
   * One book, in the client's language
   * @param id the book's id
   * @param language the client's preferred language (`en` by default)
   * @throws {BookNotFound} No book has this id
   */
  @Get('/:id')
  get(@Param('id') id: number, @Header('accept-language') language?: string) {
    const book = this.#find(id);
    return { ...book, language: language ?? 'en' };
  }

  /**
   * Whether a book is in stock
   *
   * `GET /books/:id/availability?stock=2`: numeric enums arrive as numbers.
   * @param id the book's id
   * @param stock the stock level to report (0 out, 1 low, 2 plenty)
   * @throws {BookNotFound} No book has this id
   */
  @Get('/:id/availability')
  availability(@Param('id') id: number, @Query('stock') stock: Stock = Stock.Low) {
    this.#find(id);
    return { id, stock: Stock[stock] };
  }

  /**
   * Delivery estimate
   *
   * Asks the courier (simulated: it answers after `delayMs` milliseconds) with the request's
   * `req.signal`, so the question is dropped when the client leaves, when the route's 1 s
   * handler timeout passes (503), or at the shutdown deadline.
   * @param id the book's id
   * @param delayMs how long the simulated courier takes to answer (20 ms by default)
   * @throws {BookNotFound} No book has this id
   * @response 503 The courier did not answer within the route's 1 s handler timeout
   */
  @Get('/:id/delivery')
  @HandlerTimeout(1_000)
  async delivery(@Param('id') id: number, @Req() req: KilnRequest, @Query('delayMs') delayMs = 20) {
    this.#find(id);
    const days = await askCourier(id, delayMs, req.signal);
    return { id, days };
  }

  /**
   * Add a book
   *
   * Needs a staff key (a clerk's will do); typia validates the body against `NewBook` before the handler runs.
   */
  @Post('/', RequireApiKey)
  @Roles('clerk')
  @HttpStatus(HttpCode.CREATED)
  create(@Body() book: NewBook) {
    return this.store.add(book);
  }

  /**
   * Remove a book
   *
   * Needs a manager's key.
   * @param id the book's id
   * @throws {BookNotFound} No book has this id
   */
  @Delete('/:id', RequireApiKey)
  @Roles('manager')
  @HttpStatus(HttpCode.NO_CONTENT)
  remove(@Param('id') id: number) {
    if (!this.store.remove(id)) throw new BookNotFound(id);
  }

  /**
   * Download a book as CSV
   *
   * A download: any non-JSON answer is a `Response` with its own Content-Type.
   * @param id the book's id
   * @produces text/csv
   * @throws {BookNotFound} No book has this id
   */
  @Get('/:id/export.csv')
  exportCsv(@Param('id') id: number) {
    const book = this.#find(id);
    const csv = `id,title,author,price\n${book.id},"${book.title}","${book.author}",${book.price}\n`;
    return new Response(csv, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="book-${book.id}.csv"` },
    });
  }

  /**
   * Upload a cover picture
   *
   * `multipart/form-data` with a `cover` file and an optional `caption`; the file is streamed
   * (in memory while small, else to a temporary file removed once the answer is sent).
   * @param id the book's id
   * @throws {BookNotFound} No book has this id
   */
  @Post('/:id/cover', RequireApiKey)
  @HttpStatus(HttpCode.CREATED)
  async uploadCover(@Param('id') id: number, @Body() upload: CoverUpload) {
    this.#find(id);
    const bytes = new Uint8Array(await upload.cover.arrayBuffer());
    // A real shop would store the bytes; the example answers what it received.
    return { bookId: id, name: upload.cover.name, type: upload.cover.type, size: bytes.byteLength, caption: upload.caption ?? null };
  }

  #find(id: number): Book {
    const book = this.store.get(id);
    if (book === undefined) throw new BookNotFound(id);
    return book;
  }
}
