import type { KilnDecorator } from '../decorators/kiln-decorator.js';
import { methodDeclaration } from '../decorators/method-declaration.js';
import { eventStreamSettings, type SseOptions } from './sse-options.js';

/** What `@Sse()` returns: its brand tells the transformer the route's values are events. */
export type SseDecorator = KilnDecorator<{ readonly kind: 'eventStream' }, ClassMethodDecoratorContext>;

/**
 * Marks a route as a server-sent event stream: its handler returns an `AsyncIterable<T>` (an
 * `async *` method), and the route answers `text/event-stream`, one event per yielded value,
 * projected to `T` as typed responses are. Goes with a route decorator (`@Get`, `@Post`...).
 *
 * @example
 * ```ts
 * @Get('/ticks') @Sse({ heartbeat: 10_000 })
 * async *ticks(@Req() req: KilnRequest): AsyncGenerator<Tick> {
 *   for await (const tick of hub.subscribe('ticks', { signal: req.signal })) yield tick;
 * }
 * ```
 */
export function Sse(options?: SseOptions): SseDecorator {
  const settings = eventStreamSettings(options);
  return function (_handler: Function, context: ClassMethodDecoratorContext): void {
    methodDeclaration(context).eventStream = settings;
  } as SseDecorator;
}
