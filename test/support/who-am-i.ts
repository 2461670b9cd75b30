// `GET /ip` answers `{ ip }`: the client address Kiln settled on (`req.ip`), for the suites that
// forge, trust or refuse forwarding headers.
import { Controller, Get, compiledBinder, type KilnRequest } from '@kiln/core';

@Controller('/')
export class WhoAmI {
  @Get('/ip')
  @compiledBinder((req: KilnRequest) => [req])
  ip(req: KilnRequest) {
    return { ip: req.ip ?? null };
  }
}
