// The services, controllers and middleware the injection tests wire together. Every constructor
// dependency here is resolved from its declared type by @kiln/core/transformer at build time.
import {
  Controller,
  Get,
  Header,
  HttpError,
  Inject,
  Injectable,
  InjectionToken,
  Middleware,
  Param,
  Query,
  Scope,
  Scopes,
} from '@kiln/core';

/** Records lifecycle calls in order, so tests can assert on it. */
export const lifecycle: string[] = [];

export interface AppConfig {
  readonly greeting: string;
}
export const CONFIG = new InjectionToken<AppConfig>('CONFIG');
export const REGION = 'region';
export const API_KEY = Symbol('api key');
export const SLOW = new InjectionToken<{ readonly ready: boolean }>('SLOW');

let created = 0;

@Injectable()
export class Clock {
  readonly id = ++created;
  now(): string {
    return '2026-11-23T00:00:00.000Z';
  }
}

@Injectable()
export class UserRepository {
  readonly id = ++created;
  constructor(readonly clock: Clock) {}
  find(id: number) {
    return { id, name: `user ${id}`, seen: this.clock.now() };
  }
  async onInit() {
    await new Promise((resolve) => setTimeout(resolve, 20));
    lifecycle.push('init:UserRepository');
  }
  onClose() {
    lifecycle.push('close:UserRepository');
  }
}

@Injectable()
export class UserService {
  readonly id = ++created;
  constructor(
    readonly users: UserRepository,
    @Inject(CONFIG) readonly config: AppConfig,
  ) {}
  greet(id: number) {
    return `${this.config.greeting}, ${this.users.find(id).name}`;
  }
  onInit() {
    lifecycle.push('init:UserService');
  }
  async onClose() {
    await new Promise((resolve) => setTimeout(resolve, 10));
    lifecycle.push('close:UserService');
  }
}

/** A buffer each injection point wants its own copy of. */
@Injectable()
export class AuditTrail {
  readonly id = ++created;
  constructor(readonly clock: Clock) {}
}

@Controller('/users')
export class UsersController {
  constructor(
    readonly users: UserService,
    readonly clock: Clock,
    @Scope(Scopes.LOCAL) readonly audit: AuditTrail,
    @Scope(Scopes.DEEP_LOCAL) readonly deepAudit: AuditTrail,
    @Inject(REGION) readonly region: string,
    @Inject(API_KEY) readonly apiKey: string,
  ) {}

  @Get('/:id')
  get(@Param('id') id: number) {
    return { greeting: this.users.greet(id), region: this.region };
  }

  @Get('/')
  identities(@Inject() clock: Clock, @Inject() @Scope(Scopes.LOCAL) audit: AuditTrail, @Query('x') x?: string) {
    return {
      users: this.users.id,
      serviceClock: this.users.users.clock.id,
      controllerClock: this.clock.id,
      handlerClock: clock.id,
      localAudit: this.audit.id,
      localAuditClock: this.audit.clock.id,
      deepAudit: this.deepAudit.id,
      deepAuditClock: this.deepAudit.clock.id,
      handlerAudit: audit.id,
      x: x ?? null,
    };
  }
}

@Controller('/admin')
export class AdminController {
  constructor(
    readonly users: UserService,
    readonly clock: Clock,
    readonly pageSize = 25,
  ) {}
  @Get('/ids')
  ids() {
    return { users: this.users.id, clock: this.clock.id, pageSize: this.pageSize };
  }
}

/** A class middleware with injected dependencies: it checks the API key registered under a symbol. */
@Middleware()
export class RequireApiKey {
  constructor(
    @Inject(API_KEY) readonly apiKey: string,
    readonly clock: Clock,
  ) {}
  use(@Header('x-api-key') key: string | undefined) {
    if (key !== this.apiKey) throw new HttpError(401, `Bad API key (checked at ${this.clock.now()})`);
  }
}

@Controller('/secure', RequireApiKey)
export class SecureController {
  @Get('/')
  get() {
    return { ok: true };
  }
}

@Controller('/slow')
export class SlowController {
  constructor(@Inject(SLOW) readonly slow: { readonly ready: boolean }) {}
  @Get('/')
  get() {
    return this.slow;
  }
}

/** A service that owns a connection to a server that is down: its onInit rejects as ioredis's connect() does. */
@Injectable()
export class BrokenConnection {
  async onInit() {
    throw new Error('Connection is closed.');
  }
}

@Controller('/broken')
export class BrokenController {
  constructor(readonly connection: BrokenConnection) {}
  @Get('/')
  get() {
    return { ok: true };
  }
}
