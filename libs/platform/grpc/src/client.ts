import { CallOptions, ChannelCredentials, Client, credentials, handleUnaryCall, Metadata, ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@bindery/platform/errors';
import { traceClientCall } from '@bindery/platform/telemetry';
import { Caller, callerToMetadata, idempotencyKeyToMetadata } from './call-context';
import { outgoingDeadline } from './call-budget';
import { messageLimitOptions } from './message-limits';
import { freshReadsToMetadata, noteTrailingRead } from './fresh-reads';

export interface UnaryOptions {
  caller?: Caller;
  /**
   * Absolute deadline; defaults to now + the client's default. Either way a call made while serving
   * another is cut to that call's deadline less a margin (call-budget.ts).
   */
  deadline?: Date;
  /** Makes a create or merge repeatable: a retry with the same key answers the first result. */
  idempotencyKey?: string;
}

/** The options of every channel a client opens: reconnection, keepalive and the chosen message limits. */
export function channelOptions(): object {
  return {
    'grpc.keepalive_time_ms': 30000,
    'grpc.max_reconnect_backoff_ms': 2000,
    'grpc.initial_reconnect_backoff_ms': 200,
    ...messageLimitOptions(),
  };
}

/** The metadata of an outgoing call: caller, idempotency key and trace context. */
export function outgoingMetadata(options: UnaryOptions, trace: { traceparent?: string; tracestate?: string }): Metadata {
  const metadata = idempotencyKeyToMetadata(options.idempotencyKey, callerToMetadata(options.caller));
  // The callee may answer from its own copies: a denial this answer leads to is confirmed (fresh-reads.ts).
  freshReadsToMetadata(metadata);
  noteTrailingRead();
  if (trace.traceparent) metadata.set('traceparent', trace.traceparent);
  if (trace.tracestate) metadata.set('tracestate', trace.tracestate);
  return metadata;
}

/** A promise client derived from the generated server interface: one method per RPC. */
export type PromiseClient<S> = {
  [K in keyof S as string extends K ? never : K]: S[K] extends handleUnaryCall<infer Req, infer Res> ? (req: Req, options?: UnaryOptions) => Promise<Res> : never;
};

type GeneratedClientCtor = new (address: string, creds: ChannelCredentials, options?: object) => Client;
type UnaryMethod = (req: unknown, md: Metadata, opts: CallOptions, cb: (err: ServiceError | null, res: unknown) => void) => unknown;

/**
 * Wraps a ts-proto generated client: every call carries the caller and a deadline (bounded by the
 * budget of the call being served, if any), and a failed
 * call rejects with the DomainError its status stands for.
 */
export function createPromiseClient<S>(Ctor: GeneratedClientCtor, address: string, defaultDeadlineMs: number): PromiseClient<S> & { close(): void } {
  const client = new Ctor(address, credentials.createInsecure(), channelOptions()) as unknown as Record<string, UnaryMethod> & Client;
  const methods: Record<string, unknown> = {
    close: () => client.close(),
  };
  const proto = Object.getPrototypeOf(client);
  const service = (Ctor as { serviceName?: string }).serviceName ?? 'grpc';
  for (const name of Object.keys(proto)) {
    if (typeof proto[name] !== 'function' || name === 'constructor') continue;
    methods[name] = (req: unknown, options: UnaryOptions = {}) =>
      new Promise((resolve, reject) => {
        const deadline = outgoingDeadline(options.deadline, defaultDeadlineMs);
        traceClientCall(service, name, (trace, done) => {
          client[name](req, outgoingMetadata(options, trace), { deadline }, (err, res) => {
            done(err ? err.code : 0);
            if (err) reject(fromGrpcError(err.code, err.details));
            else resolve(res);
          });
        });
      });
  }
  return methods as PromiseClient<S> & { close(): void };
}
