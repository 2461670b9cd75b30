import { HttpError } from '@kiln/core';
import type { tags } from 'typia';

/** A book of the shop's catalogue. */
export interface Book {
  id: number;
  title: string;
  author: string;
  genre: Genre;
  tags: string[];
  published: Date;
  price: number;
}

/** One event of GET /book-changes: a book added to the catalogue, or removed from it. */
export type BookChange = { kind: 'added'; book: Book } | { kind: 'removed'; id: number };

/**
 * What `POST /books` accepts. With strictValidation, typia checks it before the handler runs
 * (docs: guide/typed-bodies.md): JSON has no dates, so `published` is an ISO date string.
 */
export type NewBook = Omit<Book, 'id' | 'title' | 'published' | 'price'> & {
  title: string & tags.MinLength<1>;
  published: string & tags.Format<'date'>;
  price: number & tags.Minimum<0>;
};

export enum Genre {
  Fiction = 'fiction',
  Science = 'science',
  History = 'history',
}

/** Stock levels, sent as numbers (`?stock=2`). */
export enum Stock {
  Out,
  Low,
  Plenty,
}

export type SortOrder = 'asc' | 'desc';

/** A cover picture upload: a `multipart/form-data` body (the `File` is the web one: tsconfig lib "DOM"). */
export interface CoverUpload {
  cover: File;
  caption?: string;
}

/**
 * A route's declared error: `@throws {BookNotFound}` in its JSDoc puts the 404 and its `data`
 * into the OpenAPI document and the typed client (`error.data.id`).
 */
export class BookNotFound extends HttpError<404, { id: number }> {
  constructor(id: number) {
    super(404, `Book ${id} not found`, { id });
  }
}
