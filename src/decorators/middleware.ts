import { kMiddleware } from '../symbols.js';
import type { KilnDecorator } from './kiln-decorator.js';

/**
 * Marks a class-based middleware. Its `use` method's parameters are bound like a handler's
 * (`@Req()`, `@Header('authorization')`, ...). Returning `undefined` continues the chain; any
 * other value (or a `Response`) ends it.
 *
 * @example
 * ```ts
 * @Middleware()
 * class RequireApiKey {
 *   use(@Header('x-api-key') key: string) { if (key !== secret) throw new HttpError(401, 'Bad API key'); }
 * }
 * ```
 */
export function Middleware(): KilnDecorator<{ readonly kind: 'middleware' }, ClassDecoratorContext> {
  return function (_class: Function, context: ClassDecoratorContext): void {
    context.metadata[kMiddleware] = true;
  } as KilnDecorator<{ readonly kind: 'middleware' }, ClassDecoratorContext>;
}
