import { makeGenericClientConstructor, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { DomainError } from '@bindery/platform/errors';
import { adaptHandlers } from './server';
import { Caller, CallContext, SITE_TOKEN_REFUSAL } from './call-context';
import { createPromiseClient, UnaryOptions } from './client';

/** The request and reply types of one method of a generated service definition. */
type RequestOf<M> = M extends { requestSerialize(value: infer Req): Buffer } ? Req : never;
type ReplyOf<M> = M extends { responseDeserialize(value: Buffer): infer Res } ? Res : never;

/** The context of a call that requires a caller: the platform has already refused anonymous calls. */
export interface CallerContext extends CallContext {
  caller: Caller;
}

/**
 * The handlers of one generated service definition. Every method requires a caller unless it is
 * listed as public, in which case its context may have none.
 */
export type HandlersOf<Def, Public extends keyof Def = never> = {
  [K in keyof Def]: (req: RequestOf<Def[K]>, ctx: K extends Public ? CallContext : CallerContext) => Promise<ReplyOf<Def[K]>>;
};

/** A promise client of one generated service definition: one method per RPC. */
export type ClientOf<Def> = { [K in keyof Def]: (req: RequestOf<Def[K]>, options?: UnaryOptions) => Promise<ReplyOf<Def[K]>> } & { close(): void };

export interface GrpcRegistration {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/** Which methods of a registration take which callers (the options of grpcService and grpcStreamingService). */
export interface RegistrationOptions<Def, Public extends keyof Def> {
  /** methods that take calls without a caller */
  public?: readonly Public[];
  /**
   * Methods a site token's caller (`caller.site`) may call: reads of published content, which the
   * handler then limits to the caller's scope. Every other method refuses such a caller.
   */
  siteReadable?: readonly (keyof Def)[];
}

/**
 * The one check of who may call `name` before its handler runs: a call without a (verified) caller
 * to a method that is not public is `unauthenticated`; a site token's caller is `forbidden` unless
 * the method is open to site tokens.
 */
export function callerGuard<Def>(options: RegistrationOptions<Def, keyof Def>): (name: string, ctx: CallContext) => void {
  const open = new Set<PropertyKey>(options.public ?? []);
  const siteReadable = new Set<PropertyKey>(options.siteReadable ?? []);
  return (name, ctx) => {
    if (!ctx.caller && !open.has(name)) throw new DomainError('unauthenticated', 'A valid API token is required.');
    if (ctx.caller?.site && !siteReadable.has(name)) throw new DomainError('forbidden', SITE_TOKEN_REFUSAL);
  };
}

/**
 * Registers handlers for a generated service definition, typed from the definition itself, guarded
 * by callerGuard (anonymous calls to non-public methods, site tokens outside `siteReadable`).
 */
export function grpcService<Def extends ServiceDefinition, const Public extends keyof Def = never>(
  definition: Def,
  handlers: HandlersOf<Def, Public>,
  options: RegistrationOptions<Def, Public> = {},
): GrpcRegistration {
  const guard = callerGuard(options as RegistrationOptions<Def, keyof Def>);
  const guarded: Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>)) {
    guarded[name] = async (req, ctx) => {
      guard(name, ctx);
      return handler(req, ctx);
    };
  }
  return { definition, implementation: adaptHandlers(definition, guarded) as UntypedServiceImplementation };
}

/** A typed promise client for a generated service definition (deadline and signed caller on every call). */
export function grpcClient<Def extends ServiceDefinition>(definition: Def, address: string, defaultDeadlineMs: number): ClientOf<Def> {
  const ctor = makeGenericClientConstructor(definition, serviceNameOf(definition));
  return createPromiseClient(ctor as never, address, defaultDeadlineMs) as unknown as ClientOf<Def>;
}

/** 'bindery.identity.v1.IdentityService' from a method path '/bindery.identity.v1.IdentityService/Get'. */
function serviceNameOf(definition: ServiceDefinition): string {
  const first = Object.values(definition)[0] as { path?: string } | undefined;
  return first?.path?.split('/')[1] ?? 'grpc';
}

/** The clients of every gRPC service one app serves, on one address. */
export type ClientsOf<T extends Record<string, ServiceDefinition>> = { [K in keyof T]: ClientOf<T[K]> };

/**
 * Declares the services an app serves on one address; the answer connects typed clients to all of
 * them at once (`close` closes every channel).
 */
export function clientSet<T extends Record<string, ServiceDefinition>>(definitions: T) {
  return (address: string, defaultDeadlineMs: number): ClientsOf<T> & { close(): void } => {
    const clients = Object.fromEntries(Object.entries(definitions).map(([key, def]) => [key, grpcClient(def, address, defaultDeadlineMs)])) as ClientsOf<T>;
    const channels = Object.values(clients) as Array<{ close(): void }>;
    const close = () => {
      for (const c of channels) c.close();
    };
    return Object.assign(clients, { close });
  };
}
