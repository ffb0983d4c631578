import { handleUnaryCall, sendUnaryData, Server, ServerCredentials, ServerUnaryCall, ServiceDefinition, status } from '@grpc/grpc-js';
import { DomainError, grpcCodeOf, isDomainError } from '@bindery/platform/errors';
import { logger, traceServerCall } from '@bindery/platform/telemetry';
import { CallContext, callerFromMetadata } from './call-context';

/** A use-case handler: proto request and call context in, proto reply out; errors are DomainErrors. */
export type AsyncHandlers<S> = {
  [K in keyof S as string extends K ? never : K]: S[K] extends handleUnaryCall<infer Req, infer Res> ? (req: Req, ctx: CallContext) => Promise<Res> : never;
};

const codeOf = (err: unknown) => (isDomainError(err) ? grpcCodeOf(err.kind) : status.INTERNAL);

function toServiceError(method: string, err: unknown) {
  if (isDomainError(err)) return { code: codeOf(err), details: err.message };
  // Anything else is a bug: log it here, once, and tell the caller nothing about it.
  logger.error('unhandled error in gRPC handler', { method, error: err instanceof Error ? err.stack : String(err) });
  return { code: status.INTERNAL, details: 'Internal error.' };
}

/** Adapts promise-returning handlers to grpc-js, with the caller taken from metadata. */
export function adaptHandlers<S>(definition: ServiceDefinition, handlers: AsyncHandlers<S>): S {
  const out: Record<string, handleUnaryCall<unknown, unknown>> = {};
  for (const name of Object.keys(definition)) {
    const handler = (handlers as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>)[name];
    if (!handler) throw new Error(`no handler for ${name}`);
    // '/bindery.identity.v1.IdentityService/GetOrganization' → the service and method of the span
    const [, service = 'grpc', method = name] = (definition[name] as { path?: string }).path?.split('/') ?? [];
    out[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const [traceparent] = call.metadata.get('traceparent');
      const [tracestate] = call.metadata.get('tracestate');
      const headers = { traceparent: typeof traceparent === 'string' ? traceparent : undefined, tracestate: typeof tracestate === 'string' ? tracestate : undefined };
      traceServerCall(service, method, headers, () => handler(call.request, { caller: callerFromMetadata(call.metadata) }), codeOf).then(
        (reply) => callback(null, reply),
        (err) => callback(toServiceError(name, err)),
      );
    };
  }
  return out as S;
}

export function requireCaller(ctx: CallContext) {
  if (!ctx.caller) throw new DomainError('unauthenticated', 'A valid API token is required.');
  return ctx.caller;
}

export async function startGrpcServer(server: Server, port: number, host = '0.0.0.0'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}

export async function stopGrpcServer(server: Server, graceMs = 5000): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export { Server };
