import { Controller, env, Get, Req, type KilnRequest } from '@kiln/core';

interface GivenConfig {
  PORT: number;
  DEBUG: boolean;
  MODE: 'live' | 'test';
  HOSTS: string[];
  API_TOKEN: string;
  RETRIES?: number;
}

interface RuntimeConfig {
  KILN_CONFORMANCE_PORT: number;
  KILN_CONFORMANCE_MODE?: 'live' | 'test';
}

function attempt(read: () => unknown): unknown {
  try {
    return { config: read() };
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
}

/** env<T>() on each runtime: from a given source (the query), and from the runtime's own environment. */
@Controller('/config')
export class ConfigController {
  @Get('/given')
  given(@Req() req: KilnRequest) {
    return attempt(() => env<GivenConfig>(req.query));
  }

  @Get('/runtime')
  runtime() {
    return attempt(() => env<RuntimeConfig>());
  }
}
