import { Controller, Get, Header, Req, type KilnRequest } from '@kiln/core';
import { Ip } from '../decorators.js';

/** About the service itself. */
@Controller('/')
export class MetaController {
  /** Liveness check */
  @Get('/health')
  health() {
    return { status: 'ok' };
  }

  /**
   * Who the server thinks the client is
   *
   * A custom decorator (`@Ip()`) next to a header and the whole request.
   * @param userAgent the client's User-Agent
   */
  @Get('/whoami')
  whoami(@Ip() ip: string | undefined, @Header('user-agent') userAgent: string | undefined, @Req() req: KilnRequest) {
    return { ip, userAgent, protocol: req.protocol, host: req.hostname };
  }
}
