import { Inject, Injectable, Logger } from '@kiln/core';
import { TopicHub } from '@kiln/core/realtime';
import { Genre, type Book, type BookChange, type NewBook } from './book.js';

/**
 * An in-memory catalogue; a real shop would put a database behind the same methods (and open and
 * close its pool in `onInit()` / `onClose()`). Injected into BooksController by its declared type.
 */
@Injectable()
export class BookStore {
  #books = new Map<number, Book>();
  #nextId = 1;
  /** Every addition and removal, for GET /book-changes (server-sent events). In-process: one server. */
  readonly changes = new TopicHub<BookChange>();

  // The application's logger, injected by its token (it is an interface: no class to inject by type).
  constructor(@Inject(Logger) private readonly log: Logger) {
    this.#insert({
      title: 'The Left Hand of Darkness',
      author: 'Ursula K. Le Guin',
      genre: Genre.Fiction,
      tags: ['classic', 'sf'],
      published: '1969-03-01',
      price: 12.5,
    });
    this.#insert({
      title: 'A Short History of Nearly Everything',
      author: 'Bill Bryson',
      genre: Genre.Science,
      tags: ['popular'],
      published: '2003-05-06',
      price: 15,
    });
    this.#insert({
      title: 'SPQR',
      author: 'Mary Beard',
      genre: Genre.History,
      tags: ['rome', 'popular'],
      published: '2015-10-20',
      price: 18,
    });
  }

  add(book: NewBook): Book {
    const stored = this.#insert(book);
    this.log.info({ bookId: stored.id, title: stored.title }, 'book added');
    void this.changes.publish('books', { kind: 'added', book: stored });
    return stored;
  }

  #insert(book: NewBook): Book {
    const stored: Book = { ...book, id: this.#nextId++, published: new Date(book.published) };
    this.#books.set(stored.id, stored);
    return stored;
  }

  get(id: number): Book | undefined {
    return this.#books.get(id);
  }

  remove(id: number): boolean {
    const removed = this.#books.delete(id);
    if (removed) {
      this.log.info({ bookId: id }, 'book removed');
      void this.changes.publish('books', { kind: 'removed', id });
    }
    return removed;
  }

  all(): Book[] {
    return [...this.#books.values()];
  }
}
