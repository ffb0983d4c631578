import {
  ClientWritableStream,
  credentials,
  makeGenericClientConstructor,
  Metadata,
  ServerReadableStream,
  ServiceDefinition,
  status,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { DomainError, fromGrpcError, grpcCodeOf, isDomainError } from '@bindery/platform/errors';
import { logger, traceClientCall, traceServerCall } from '@bindery/platform/telemetry';
import { CallContext } from './call-context';
import { contextOf, DEADLINE_PASSED, deadlineOf } from './server';
import { callerGuard, type CallerContext, type GrpcRegistration, type RegistrationOptions } from './typed-service';
import { channelOptions, outgoingMetadata, UnaryOptions } from './client';
import { budgetSpent, outgoingDeadline, withCallBudget } from './call-budget';
import { confirmingDenials, freshReadsFromMetadata } from './fresh-reads';
import type { StreamContext } from './streaming';

/**
 * Client-streaming RPCs (`rpc X(stream Req) returns (Res)`), with the conventions of unary handlers: the
 * caller comes from signed metadata and is required unless the method is public, the call continues the
 * caller's trace, a DomainError becomes its status and anything else is logged once and answered INTERNAL.
 *
 * The first message is the call's head (what the handler checks before it reads anything else): the
 * handler gets it apart, then the rest as an async iterable pulled one message at a time, so a slow
 * handler holds the sender back through HTTP/2 flow control instead of filling memory. A call the
 * client cancels (or whose deadline passes) fails the iteration, which lets the handler undo its work.
 */

type RequestOf<M> = M extends { requestSerialize(value: infer Req): Buffer } ? Req : never;
type ReplyOf<M> = M extends { responseDeserialize(value: Buffer): infer Res } ? Res : never;

export type ClientStreamingHandlersOf<Def, Public extends keyof Def = never> = {
  [K in keyof Def]: (
    head: RequestOf<Def[K]>,
    rest: AsyncIterable<RequestOf<Def[K]>>,
    ctx: StreamContext<K extends Public ? CallContext : CallerContext>,
  ) => Promise<ReplyOf<Def[K]>>;
};

const codeOf = (err: unknown) => (isDomainError(err) ? grpcCodeOf(err.kind) : status.INTERNAL);

function statusOf(method: string, err: unknown): { code: number; details: string } {
  if (isDomainError(err)) return { code: codeOf(err), details: err.message };
  logger.error('unhandled error in gRPC handler', { method, error: err instanceof Error ? err.stack : String(err) });
  return { code: status.INTERNAL, details: 'Internal error.' };
}

type Handler = (head: unknown, rest: AsyncIterable<unknown>, ctx: StreamContext<CallContext>) => Promise<unknown>;

function adaptClientStreaming(definition: ServiceDefinition, name: string, handler: Handler) {
  const [, service = 'grpc', method = name] = (definition[name] as { path?: string }).path?.split('/') ?? [];
  return (call: ServerReadableStream<unknown, unknown>, callback: (err: { code: number; details: string } | null, reply?: unknown) => void) => {
    const [traceparent] = call.metadata.get('traceparent');
    const [tracestate] = call.metadata.get('tracestate');
    const headers = { traceparent: typeof traceparent === 'string' ? traceparent : undefined, tracestate: typeof tracestate === 'string' ? tracestate : undefined };
    const deadline = deadlineOf(call);
    if (budgetSpent(deadline)) return callback(DEADLINE_PASSED);
    const cancelled = new AbortController();
    call.once('cancelled', () => {
      cancelled.abort();
      // the handler's iteration fails instead of waiting for messages that will not come
      call.destroy(new DomainError('unavailable', 'The call was cancelled.'));
    });
    const messages = call[Symbol.asyncIterator]();
    const rest: AsyncIterable<unknown> = { [Symbol.asyncIterator]: () => messages };
    withCallBudget(deadline, () =>
      traceServerCall(
        service,
        method,
        headers,
        async () => {
          const first = await messages.next();
          if (first.done) throw new DomainError('invalid', 'The call sent no message.');
          return confirmingDenials(freshReadsFromMetadata(call.metadata), () => handler(first.value, rest, { ...contextOf(call.metadata), signal: cancelled.signal }));
        },
        codeOf,
      ),
    ).then(
      (reply) => callback(null, reply),
      (err) => {
        if (!cancelled.signal.aborted) callback(statusOf(name, err));
      },
    );
  };
}

/**
 * Registers client-streaming handlers for a generated service definition whose methods all take a
 * stream of requests and answer one reply, guarded as unary ones are (callerGuard in typed-service.ts).
 */
export function grpcClientStreamingService<Def extends ServiceDefinition, const Public extends keyof Def = never>(
  definition: Def,
  handlers: ClientStreamingHandlersOf<Def, Public>,
  options: RegistrationOptions<Def, Public> = {},
): GrpcRegistration {
  const guard = callerGuard(options as RegistrationOptions<Def, keyof Def>);
  const implementation: UntypedServiceImplementation = {};
  for (const name of Object.keys(definition)) {
    const method = definition[name] as { requestStream: boolean; responseStream: boolean };
    if (!method.requestStream || method.responseStream) throw new Error(`${name} is not a client-streaming method`);
    const handler = (handlers as Record<string, Handler>)[name];
    if (!handler) throw new Error(`no handler for ${name}`);
    implementation[name] = adaptClientStreaming(definition, name, async (head, rest, ctx) => {
      guard(name, ctx);
      return handler(head, rest, ctx);
    });
  }
  return { definition, implementation };
}

/**
 * A client of a service whose methods take a stream of requests: each method sends every message of
 * `source` (the head first), writing the next only when the transport took the previous one, and
 * answers the reply. A source that fails cancels the call and rejects with the source's error; a call
 * that fails early (a refusal) stops reading the source.
 */
export type ClientStreamingClientOf<Def> = { [K in keyof Def]: (source: AsyncIterable<RequestOf<Def[K]>>, options?: UnaryOptions) => Promise<ReplyOf<Def[K]>> } & {
  close(): void;
};

type WritableCall = ClientWritableStream<unknown> & { cancel(): void };

/** Resolves when the call can take more, or when it ended (then there is nothing more to send). */
function drained(call: WritableCall, ended: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      ended.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    ended.addEventListener('abort', done, { once: true });
  });
}

async function feed(call: WritableCall, source: AsyncIterable<unknown>, ended: AbortSignal): Promise<void> {
  for await (const message of source) {
    if (ended.aborted) return;
    if (!call.write(message)) await drained(call, ended);
    if (ended.aborted) return;
  }
  call.end();
}

export function grpcClientStreamingClient<Def extends ServiceDefinition>(definition: Def, address: string, defaultDeadlineMs: number): ClientStreamingClientOf<Def> {
  const serviceName = (Object.values(definition)[0] as { path?: string } | undefined)?.path?.split('/')[1] ?? 'grpc';
  const Ctor = makeGenericClientConstructor(definition, serviceName);
  const client = new Ctor(address, credentials.createInsecure(), channelOptions()) as unknown as Record<
    string,
    (md: Metadata, opts: object, cb: (err: { code: number; details: string } | null, res?: unknown) => void) => WritableCall
  > & { close(): void };
  const methods: Record<string, unknown> = { close: () => client.close() };
  for (const name of Object.keys(definition)) {
    methods[name] = (source: AsyncIterable<unknown>, options: UnaryOptions = {}) =>
      new Promise((resolve, reject) => {
        const ended = new AbortController();
        traceClientCall(serviceName, name, (trace, done) => {
          const call = client[name](outgoingMetadata(options, trace), { deadline: outgoingDeadline(options.deadline, defaultDeadlineMs) }, (err, res) => {
            ended.abort();
            done(err ? err.code : 0);
            if (err) reject(fromGrpcError(err.code, err.details));
            else resolve(res);
          });
          call.on('error', () => undefined);
          feed(call, source, ended.signal).catch((err) => {
            reject(err);
            call.cancel();
          });
        });
      });
  }
  return methods as ClientStreamingClientOf<Def>;
}
