import { context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** W3C trace context of the active span, to store with work that continues later (an outbox event). */
export function currentTraceContext(): { traceparent?: string; tracestate?: string } {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return { traceparent: carrier.traceparent, tracestate: carrier.tracestate };
}

export function currentTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/** Runs `fn` in a new span whose parent is the stored trace context (an event's, say). */
export async function withRemoteParent<T>(name: string, parent: { traceparent?: string; tracestate?: string }, kind: SpanKind, fn: (span: Span) => Promise<T>): Promise<T> {
  const carrier: Record<string, string> = {};
  if (parent.traceparent) carrier.traceparent = parent.traceparent;
  if (parent.tracestate) carrier.tracestate = parent.tracestate;
  const parentCtx = propagation.extract(ROOT_CONTEXT, carrier);
  const tracer = trace.getTracer('bindery');
  return tracer.startActiveSpan(name, { kind }, parentCtx, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };

/** Exports pending spans before the process exits; a no-op when telemetry was not preloaded. */
export async function flushTelemetry(): Promise<void> {
  const shutdown = (globalThis as { __binderyTelemetryShutdown?: () => Promise<void> }).__binderyTelemetryShutdown;
  if (shutdown) await shutdown().catch(() => undefined);
}
