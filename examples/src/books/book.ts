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

export type NewBook = Omit<Book, 'id' | 'published'> & { published: string };

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
