import {
  ClientReadableStream,
  credentials,
  makeGenericClientConstructor,
  Metadata,
  ServerWritableStream,
  ServiceDefinition,
  status,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { fromGrpcError, grpcCodeOf, isDomainError } from '@bindery/platform/errors';
import { logger, traceClientCall, traceServerCall } from '@bindery/platform/telemetry';
import { CallContext } from './call-context';
import { contextOf, DEADLINE_PASSED, deadlineOf } from './server';
import { callerGuard, type CallerContext, type GrpcRegistration, type RegistrationOptions } from './typed-service';
import { channelOptions, outgoingMetadata, UnaryOptions } from './client';
import { budgetSpent, outgoingDeadline, withCallBudget } from './call-budget';

/**
 * Server-streaming RPCs (`rpc X(Req) returns (stream Res)`), with the conventions of unary handlers
 * (server.ts, typed-service.ts): the caller comes from signed metadata and is required unless the
 * method is public, the call continues the caller's trace, a DomainError becomes its status and
 * anything else is logged once and answered INTERNAL.
 *
 * A handler is an async iterable of replies. It is pulled one reply at a time: when the transport's
 * buffer is full the next reply is not asked for until 'drain', so a slow reader slows the source
 * down instead of filling memory; when the call is cancelled (client gone, deadline passed) the
 * iterator is returned, which closes whatever it reads from.
 */

type RequestOf<M> = M extends { requestSerialize(value: infer Req): Buffer } ? Req : never;
type ReplyOf<M> = M extends { responseDeserialize(value: Buffer): infer Res } ? Res : never;

/** A streaming handler's context: the caller, and a signal aborted when the call is cancelled. */
export type StreamContext<Ctx> = Ctx & { signal: AbortSignal };

export type StreamingHandlersOf<Def, Public extends keyof Def = never> = {
  [K in keyof Def]: (req: RequestOf<Def[K]>, ctx: StreamContext<K extends Public ? CallContext : CallerContext>) => AsyncIterable<ReplyOf<Def[K]>>;
};

const codeOf = (err: unknown) => (isDomainError(err) ? grpcCodeOf(err.kind) : status.INTERNAL);

function statusOf(method: string, err: unknown): { code: number; details: string } {
  if (isDomainError(err)) return { code: codeOf(err), details: err.message };
  logger.error('unhandled error in gRPC handler', { method, error: err instanceof Error ? err.stack : String(err) });
  return { code: status.INTERNAL, details: 'Internal error.' };
}

/** Resolves on 'drain', or when the call is cancelled (grpc-js never drains a cancelled call). */
function drainedOrCancelled(call: ServerWritableStream<unknown, unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Writes every reply of `source` to the call, one at a time, honouring backpressure and cancellation. */
async function pump(call: ServerWritableStream<unknown, unknown>, source: AsyncIterable<unknown>, signal: AbortSignal): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    while (!signal.aborted) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        return;
      }
      if (signal.aborted) return;
      if (!call.write(next.value)) await drainedOrCancelled(call, signal);
    }
  } finally {
    // Stops the source early (closes its file, cursor or socket) unless it ended by itself.
    if (!finished) await iterator.return?.();
  }
}

function adaptStreaming(definition: ServiceDefinition, name: string, handler: (req: unknown, ctx: StreamContext<CallContext>) => AsyncIterable<unknown>) {
  const [, service = 'grpc', method = name] = (definition[name] as { path?: string }).path?.split('/') ?? [];
  return (call: ServerWritableStream<unknown, unknown>) => {
    const [traceparent] = call.metadata.get('traceparent');
    const [tracestate] = call.metadata.get('tracestate');
    const headers = { traceparent: typeof traceparent === 'string' ? traceparent : undefined, tracestate: typeof tracestate === 'string' ? tracestate : undefined };
    const deadline = deadlineOf(call);
    if (budgetSpent(deadline)) {
      call.emit('error', DEADLINE_PASSED);
      return;
    }
    const cancelled = new AbortController();
    call.once('cancelled', () => cancelled.abort());
    withCallBudget(deadline, () =>
      traceServerCall(service, method, headers, () => pump(call, handler(call.request, { ...contextOf(call.metadata), signal: cancelled.signal }), cancelled.signal), codeOf),
    ).then(
      () => {
        if (!cancelled.signal.aborted) call.end();
      },
      (err) => {
        // grpc-js turns an 'error' event on a server stream into the call's status.
        if (!cancelled.signal.aborted) call.emit('error', statusOf(name, err));
      },
    );
  };
}

/**
 * Registers server-streaming handlers for a generated service definition whose methods all stream
 * their replies, guarded as unary ones are (callerGuard in typed-service.ts): a call without a
 * verified caller to a method not listed in `options.public` is refused with `unauthenticated`, a
 * site token's caller outside `options.siteReadable` with `forbidden`, before its handler runs.
 */
export function grpcStreamingService<Def extends ServiceDefinition, const Public extends keyof Def = never>(
  definition: Def,
  handlers: StreamingHandlersOf<Def, Public>,
  options: RegistrationOptions<Def, Public> = {},
): GrpcRegistration {
  const guard = callerGuard(options as RegistrationOptions<Def, keyof Def>);
  const implementation: UntypedServiceImplementation = {};
  for (const name of Object.keys(definition)) {
    const method = definition[name] as { requestStream: boolean; responseStream: boolean };
    if (method.requestStream || !method.responseStream) throw new Error(`${name} is not a server-streaming method`);
    const handler = (handlers as Record<string, (req: unknown, ctx: StreamContext<CallContext>) => AsyncIterable<unknown>>)[name];
    if (!handler) throw new Error(`no handler for ${name}`);
    const guarded = async function* (req: unknown, ctx: StreamContext<CallContext>) {
      guard(name, ctx);
      yield* handler(req, ctx);
    };
    implementation[name] = adaptStreaming(definition, name, guarded);
  }
  return { definition, implementation };
}

/** A streamed reply being read: iterate it (errors arrive as DomainErrors), or cancel it. */
export interface ReplyStream<Res> extends AsyncIterable<Res> {
  cancel(): void;
}

export type StreamingClientOf<Def> = { [K in keyof Def]: (req: RequestOf<Def[K]>, options?: UnaryOptions) => ReplyStream<ReplyOf<Def[K]>> } & { close(): void };

async function* mapped<T>(stream: ClientReadableStream<T>, done: (code: number) => void): AsyncGenerator<T> {
  let reported = false;
  const report = (code: number) => {
    if (!reported) done(code);
    reported = true;
  };
  try {
    // A Readable's iterator pulls: grpc-js reads the next message only when this loop asks for it,
    // so a slow consumer holds the sender back through HTTP/2 flow control.
    for await (const reply of stream) yield reply as T;
    report(0);
  } catch (err) {
    const { code = status.UNKNOWN, details = '' } = err as { code?: number; details?: string };
    report(code);
    throw fromGrpcError(code, details);
  } finally {
    // Leaving the loop early (a consumer that stopped) must not leave the call running.
    report(status.CANCELLED);
    stream.cancel();
  }
}

/**
 * A client of a service whose methods stream their replies. Every call carries the caller (signed
 * when BINDERY_INTERNAL_SECRET is set) and a deadline for the WHOLE stream: pick it for the largest
 * transfer expected, not for a unary round trip.
 */
export function grpcStreamingClient<Def extends ServiceDefinition>(definition: Def, address: string, defaultDeadlineMs: number): StreamingClientOf<Def> {
  const serviceName = (Object.values(definition)[0] as { path?: string } | undefined)?.path?.split('/')[1] ?? 'grpc';
  const Ctor = makeGenericClientConstructor(definition, serviceName);
  const client = new Ctor(address, credentials.createInsecure(), channelOptions()) as unknown as Record<
    string,
    (req: unknown, md: Metadata, opts: object) => ClientReadableStream<unknown>
  > & { close(): void };
  const methods: Record<string, unknown> = { close: () => client.close() };
  for (const name of Object.keys(definition)) {
    methods[name] = (req: unknown, options: UnaryOptions = {}): ReplyStream<unknown> => {
      let stream!: ClientReadableStream<unknown>;
      let finish: (code: number) => void = () => undefined;
      traceClientCall(serviceName, name, (trace, done) => {
        stream = client[name](req, outgoingMetadata(options, trace), { deadline: outgoingDeadline(options.deadline, defaultDeadlineMs) });
        finish = done;
      });
      // A stream nobody iterates (cancelled before its first read) must not crash the process with
      // an unhandled 'error'; an iterating consumer still gets the error through its iterator.
      stream.on('error', () => undefined);
      const replies = mapped(stream, finish);
      return { [Symbol.asyncIterator]: () => replies, cancel: () => stream.cancel() };
    };
  }
  return methods as StreamingClientOf<Def>;
}
