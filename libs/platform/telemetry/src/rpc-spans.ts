import { context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';

/**
 * Spans for the gRPC hop between the gateway and the services, made here rather than by the grpc-js
 * auto-instrumentation: that one wraps every client and server method generically and cost a third
 * of the gateway's CPU per request (docs/benchmarks.md); these carry the same trace across the hop
 * (W3C `traceparent`/`tracestate` in the call metadata) with the `rpc.*` attributes.
 */
// Asked once: getTracer builds a lookup key on every call, which showed on the gateway's profile.
// The global API answers a proxy that follows the provider, so keeping it is safe before registration.
let rpcTracer: Tracer | undefined;
const tracer = () => (rpcTracer ??= trace.getTracer('bindery-rpc'));

export type TraceHeaders = { traceparent?: string; tracestate?: string };

function attributes(service: string, method: string) {
  return { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
}

function finish(span: Span, code: number) {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== 0) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Runs an outgoing call in a CLIENT span: `send` gets the headers that carry the trace, and reports
 * the gRPC status code it ended with through `done`.
 */
export function traceClientCall(service: string, method: string, send: (headers: TraceHeaders, done: (code: number) => void) => void): void {
  const span = tracer().startSpan(`${service}/${method}`, { kind: SpanKind.CLIENT, attributes: attributes(service, method) });
  const headers: TraceHeaders = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  send(headers, (code) => finish(span, code));
}

/**
 * Runs an incoming call's handler in a SERVER span continuing the caller's trace; everything the
 * handler does (database calls, logs) belongs to it. `codeOf` maps a failure to its gRPC status.
 */
export function traceServerCall<T>(service: string, method: string, headers: TraceHeaders, handle: () => Promise<T>, codeOf: (err: unknown) => number): Promise<T> {
  const parent = headers.traceparent ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
  const span = tracer().startSpan(`${service}/${method}`, { kind: SpanKind.SERVER, attributes: attributes(service, method) }, parent);
  return context.with(trace.setSpan(parent, span), handle).then(
    (value) => {
      finish(span, 0);
      return value;
    },
    (err) => {
      finish(span, codeOf(err));
      throw err;
    },
  );
}

/** Names the HTTP server span of the request being handled after its route (`GET /v1/orgs/:organizationId`). */
export function nameHttpRoute(method: string, route: string): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute('http.route', route);
  span.updateName(`${method.toUpperCase()} ${route}`);
}
