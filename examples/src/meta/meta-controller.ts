import { Controller, Get, Header, Req, type KilnRequest } from '@kiln/core';
import { Ip } from '../decorators.js';

@Controller('/')
export class MetaController {
  @Get('/health')
  health() {
    return { status: 'ok' };
  }

  /** A custom decorator (`@Ip()`) next to a header and the whole request. */
  @Get('/whoami')
  whoami(@Ip() ip: string | undefined, @Header('user-agent') userAgent: string | undefined, @Req() req: KilnRequest) {
    return { ip, userAgent, protocol: req.protocol, host: req.hostname };
  }
}
