import { Injectable, InjectionToken } from '@kiln/core';
import type { Book } from './types.js';

/** A value the app provides at start-up with `injections`. */
export const GREETING = new InjectionToken<string>('greeting');

/** A service the controllers get by their constructor's declared type. */
@Injectable()
export class Shelf {
  readonly #books = new Map<number, Book & { secret: string }>([
    [1, { id: 1, title: 'Dune', year: 1965, secret: 'not in the typed response' }],
    [2, { id: 2, title: 'Solaris', year: 1961, secret: 'not in the typed response' }],
  ]);

  get(id: number): (Book & { secret: string }) | undefined {
    return this.#books.get(id);
  }
}
