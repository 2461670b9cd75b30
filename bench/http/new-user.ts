// Route (c)'s body: the type Kiln validates with typia (its tags state the rules), and the
// hand-written check of the same rules for the servers whose framework offers no validation of
// its own (raw node:http, srvx, Hono's validator hook).
import type { tags } from 'typia';

export interface NewUser {
  name: string & tags.MinLength<1>;
  email: string & tags.Format<'email'>;
  age: number & tags.Type<'uint32'>;
}

/** A reason the value is not a NewUser, or undefined when it is one. */
export function checkNewUser(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return 'body must be an object';
  const user = value as Record<string, unknown>;
  if (typeof user.name !== 'string' || user.name.length === 0) return 'name must be a non-empty string';
  if (typeof user.email !== 'string' || !user.email.includes('@')) return 'email must be an email address';
  if (typeof user.age !== 'number' || !Number.isInteger(user.age) || user.age < 0) return 'age must be a whole number >= 0';
  return undefined;
}
