/**
 * Telemetry bootstrap, loaded with `node --require` before any app code so the instrumentations can
 * hook express, grpc-js, mongodb and kafkajs as they are first required. Spans are always recorded
 * (logs carry their trace ids); they are exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { redactUrlPath } from './redact-url';
import { HostedServiceSpans, PerServiceExporter } from './hosted-spans';

process.env.OTEL_METRICS_EXPORTER ??= 'none';
process.env.OTEL_LOGS_EXPORTER ??= 'none';
process.env.OTEL_SERVICE_NAME ??= process.env.BINDERY_SERVICE_NAME ?? 'bindery';

const exporting = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
// In a process hosting several services (apps/bindery), each span is exported under its own service's name.
const spanProcessors = exporting
  ? [new HostedServiceSpans(), new tracing.BatchSpanProcessor(new PerServiceExporter(new OTLPTraceExporter()), { scheduledDelayMillis: 500 })]
  : [new tracing.NoopSpanProcessor()];

const sdk = new NodeSDK({
  spanProcessors,
  instrumentations: [
    getNodeAutoInstrumentations({
      '@opentelemetry/instrumentation-fs': { enabled: false },
      '@opentelemetry/instrumentation-dns': { enabled: false },
      '@opentelemetry/instrumentation-net': { enabled: false },
      '@opentelemetry/instrumentation-runtime-node': { enabled: false },
      // Measured on the hot path (docs/benchmarks.md): these three cost more than half of the gateway's
      // CPU per request. The gRPC hop is traced by platform/grpc itself (rpc-spans.ts) and the gateway
      // names each HTTP span after its route, so nothing a trace shows is lost.
      '@opentelemetry/instrumentation-grpc': { enabled: false },
      '@opentelemetry/instrumentation-express': { enabled: false },
      '@opentelemetry/instrumentation-router': { enabled: false },
      // The default statement serializer walks every value of every document written: for a 255 KiB
      // file chunk that is an object of 261,120 keys (a 50 MB upload cost +278 MB and 15 s). Spans
      // name the command only; values (which may be secrets) are never exported either way.
      '@opentelemetry/instrumentation-mongodb': { dbStatementSerializer: (command: Record<string, unknown>) => Object.keys(command).slice(0, 1).join(',') },
      '@opentelemetry/instrumentation-http': {
        // Some paths carry secrets (invite ids, share-link keys): spans get the redacted form.
        requestHook: (span, request) => {
          const url = 'url' in request ? request.url : undefined;
          if (!url) return;
          // Query strings may carry keys too: never exported.
          if (url.includes('?')) span.setAttribute('url.query', '[redacted]');
          const safe = redactUrlPath(url);
          if (safe === url) return;
          span.setAttribute('http.target', safe);
          span.setAttribute('url.path', safe);
          span.setAttribute('http.url', safe);
          span.setAttribute('url.full', safe);
        },
      },
    }),
  ],
});
sdk.start();

const shutdown = () => {
  sdk.shutdown().catch(() => undefined);
};
process.once('beforeExit', shutdown);
// Apps call this on SIGTERM (through flushTelemetry) so the last spans are exported.
(globalThis as { __binderyTelemetryShutdown?: () => Promise<void> }).__binderyTelemetryShutdown = () => sdk.shutdown();
