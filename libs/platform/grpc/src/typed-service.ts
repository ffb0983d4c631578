import { makeGenericClientConstructor, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { DomainError } from '@bindery/platform/errors';
import { adaptHandlers } from './server';
import { Caller, CallContext } from './call-context';
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

/**
 * Registers handlers for a generated service definition, typed from the definition itself. A call
 * without a (verified) caller to a method not listed in `options.public` is refused with
 * `unauthenticated` before its handler runs.
 */
export function grpcService<Def extends ServiceDefinition, const Public extends keyof Def = never>(
  definition: Def,
  handlers: HandlersOf<Def, Public>,
  options: { public?: readonly Public[] } = {},
): GrpcRegistration {
  const open = new Set<PropertyKey>(options.public ?? []);
  const guarded: Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>)) {
    guarded[name] = open.has(name)
      ? handler
      : async (req, ctx) => {
          if (!ctx.caller) throw new DomainError('unauthenticated', 'A valid API token is required.');
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
