import { methodDeclaration } from './method-declaration.js';
import { kilnError } from '../kiln-error.js';

/**
 * Sets the status of the handler's plain return value (default 200, or 204 when it returns
 * nothing). A returned `Response` keeps its own status.
 *
 * @example
 * ```ts
 * @Post('/') @HttpStatus(HttpCode.CREATED) create(@Body() user: NewUser) { ... }
 * ```
 */
export function HttpStatus(code: number) {
  if (!Number.isInteger(code) || code < 100 || code > 599) {
    throw kilnError('KILN008', 'httpStatus', code);
  }
  return function (_handler: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).status = code;
  };
}
