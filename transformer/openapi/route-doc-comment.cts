// What a handler's JSDoc says for the document: summary, description, deprecation, parameter
// descriptions, and the Kiln tags `@produces`, `@response`, `@throws` and `@operationId`.
import type * as ts from 'typescript';

export interface RouteDocComment {
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  /** `@param name text`, by parameter name. */
  readonly parameters: ReadonlyMap<string, string>;
  /** `@produces text/csv`: the media type of a handler that returns a `Response`. */
  readonly produces?: string;
  /** `@response 404 Book not found`: a response the handler (or a middleware) answers itself. */
  readonly responses: readonly { readonly status: string; readonly description: string }[];
  /** `@operationId name`: replaces `Controller.method`. */
  readonly operationId?: string;
  /** `@throws {BookNotFound} No such book`: a declared error (an HttpError type: its status and the type of its `data`). */
  readonly throws: readonly DeclaredError[];
}

/** One `@throws {BookNotFound}` (an HttpError subclass) or `@throws {HttpError<404, BookNotFound>}` tag. */
export interface DeclaredError {
  /** The type the tag names: its `status` and `data` say the error's status and body. */
  readonly type: ts.TypeNode;
  readonly description: string;
  /** The tag: where a problem with it is reported. */
  readonly tag: ts.JSDocTag;
}

/** Reads the JSDoc block of a method (or class). The first line is the summary, the rest the description. */
export function readDocComment(tsi: typeof ts, node: ts.Node): RouteDocComment {
  const docs = tsi.getJSDocCommentsAndTags(node).filter((d): d is ts.JSDoc => tsi.isJSDoc(d));
  const parameters = new Map<string, string>();
  const responses: { status: string; description: string }[] = [];
  const throws: DeclaredError[] = [];
  let text = '';
  let deprecated = false;
  let produces: string | undefined;
  let operationId: string | undefined;
  let summaryTag: string | undefined;
  for (const doc of docs) {
    const comment = tsi.getTextOfJSDocComment(doc.comment)?.trim();
    if (comment) text = comment;
    for (const tag of doc.tags ?? []) {
      const tagText = (tsi.getTextOfJSDocComment(tag.comment) ?? '').trim().replace(/^-\s*/, '');
      const name = tag.tagName.text;
      if (tsi.isJSDocParameterTag(tag)) {
        if (tagText !== '') parameters.set(tag.name.getText(), tagText);
      } else if (tsi.isJSDocDeprecatedTag(tag) || name === 'deprecated') {
        deprecated = true;
      } else if (name === 'produces' && tagText !== '') {
        produces = tagText.split(/\s+/)[0];
      } else if (name === 'response') {
        const match = /^(\d{3}|default)\s*(.*)$/s.exec(tagText);
        if (match !== null) responses.push({ status: match[1]!, description: match[2]!.trim() });
      } else if (tsi.isJSDocThrowsTag(tag) && tag.typeExpression !== undefined) {
        throws.push({ type: tag.typeExpression.type, description: tagText, tag });
      } else if (name === 'operationId' && tagText !== '') {
        operationId = tagText.split(/\s+/)[0];
      } else if (name === 'summary' && tagText !== '') {
        summaryTag = tagText;
      }
    }
  }
  const [first = '', ...rest] = text.split(/\r?\n/);
  const summary = summaryTag ?? (first.trim() || undefined);
  const remainder = (summaryTag === undefined ? rest.join('\n') : text).trim();
  return {
    ...(summary === undefined ? {} : { summary }),
    ...(remainder === '' ? {} : { description: remainder }),
    deprecated,
    parameters,
    responses,
    throws,
    ...(produces === undefined ? {} : { produces }),
    ...(operationId === undefined ? {} : { operationId }),
  };
}
