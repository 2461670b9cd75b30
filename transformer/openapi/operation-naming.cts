// The names the document gives a route: its operationId, unique in the document (`Controller.method`
// unless `@operationId` says otherwise), and its tag, one per controller.
import type * as ts from 'typescript';
import type { OperationSource } from './operation-sources.cjs';
import { readDocComment, type RouteDocComment } from './route-doc-comment.cjs';

/** `BooksController.list`, `BooksController.list_2` for the method's second route, or the route's `@operationId`. */
export function operationIdOf(source: OperationSource, doc: RouteDocComment): string {
  const where = `${source.className}.${source.methodName}`;
  // An inherited route is another operation than its base class's: its @operationId tag stays the base's.
  return (source.inherited ? undefined : doc.operationId) ?? (source.routeIndex === 0 ? where : `${where}_${source.routeIndex + 1}`);
}

/** The tag of a controller: its class name without the `Controller` suffix (`BooksController` → `Books`). */
function tagOf(className: string): string {
  return className.length > 'Controller'.length && className.endsWith('Controller') ? className.slice(0, -'Controller'.length) : className;
}

/** The operationIds taken so far and the tags of their controllers, in the order they were met. */
export class OperationNames {
  readonly #operations = new Map<string, OperationSource>();
  readonly #tags = new Map<string, string | undefined>();

  /** The route that already took `operationId`, if one did. */
  takenBy(operationId: string): OperationSource | undefined {
    return this.#operations.get(operationId);
  }

  /** Takes `operationId` for `source` and answers its tag (the controller's JSDoc summary describes the tag). */
  take(operationId: string, source: OperationSource, tsi: typeof ts): string {
    this.#operations.set(operationId, source);
    const tag = tagOf(source.className);
    if (!this.#tags.has(tag)) this.#tags.set(tag, readDocComment(tsi, source.controller).summary);
    return tag;
  }

  /** The document's `tags`. */
  tagObjects(): { name: string; description?: string }[] {
    return [...this.#tags].map(([name, description]) => (description === undefined ? { name } : { name, description }));
  }
}
