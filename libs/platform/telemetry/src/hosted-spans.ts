import type { Context } from '@opentelemetry/api';
import { resources, tracing } from '@opentelemetry/sdk-node';
import { hostedServiceScope } from './service-scope';

type ExportResult = Parameters<tracing.SpanExporter['export']>[1] extends (result: infer R) => void ? R : never;

/** The span attribute naming the hosted service a span belongs to (a monolith's spans, apps/bindery). */
export const HOSTED_SERVICE_ATTRIBUTE = 'bindery.service';

/** Marks each span started inside `asService` with the hosted service's name. */
export class HostedServiceSpans implements tracing.SpanProcessor {
  onStart(span: tracing.Span, _parent: Context): void {
    const service = hostedServiceScope().getStore();
    if (service) span.setAttribute(HOSTED_SERVICE_ATTRIBUTE, service);
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Exports each marked span under its hosted service's name (the resource's service.name), so a
 * monolith's traces show gateway, identity, … as separate services, as the split deployment's do.
 */
export class PerServiceExporter implements tracing.SpanExporter {
  private readonly resources = new Map<string, resources.Resource>();

  constructor(private readonly inner: tracing.SpanExporter) {}

  export(spans: tracing.ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(
      spans.map((span) => this.relabel(span)),
      done,
    );
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private relabel(span: tracing.ReadableSpan): tracing.ReadableSpan {
    const service = span.attributes[HOSTED_SERVICE_ATTRIBUTE];
    if (typeof service !== 'string' || span.resource.attributes['service.name'] === service) return span;
    let resource = this.resources.get(service);
    if (!resource) {
      resource = span.resource.merge(resources.resourceFromAttributes({ 'service.name': service }));
      this.resources.set(service, resource);
    }
    // The span itself, seen with another resource (one object per service: exporters group by it).
    return Object.create(span, { resource: { value: resource } }) as tracing.ReadableSpan;
  }
}
