// The benchmark's UsersController.get declared for the reflection-based binder: the same
// handler as bench/http/servers/kiln/users-controller.ts, legacy decorators.
import { Header, Param, Query } from './reflection-binder.js';

export class UsersController {
  get(@Param('id') id: number, @Query('active') active: boolean, @Query('tags') tags: string[], @Header('x-request-id') requestId: string) {
    return { id, active, tags, requestId };
  }
}
