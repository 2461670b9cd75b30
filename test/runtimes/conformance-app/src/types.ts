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

/** What `POST /books` accepts; typia checks it under strictValidation. */
export interface NewBook {
  title: string & tags.MinLength<1>;
  year: number & tags.Type<'uint32'>;
  tags: string[];
  isbn?: string & tags.Pattern<'^[0-9-]{10,17}$'>;
}

/** What a book route answers: its typed response keeps these properties only. */
export interface Book {
  id: number;
  title: string;
  year: number;
}
