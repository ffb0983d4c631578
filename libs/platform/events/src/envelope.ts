import { newSortableId, nowIso } from '@bindery/shared/ids';
import { currentTraceContext } from '@bindery/platform/telemetry';

/**
 * The one envelope every event travels in (CloudEvents-like, JSON). `type` is a past-tense fact,
 * `<service>.<noun>.<verb>`; `subject` is the aggregate id and the Kafka key.
 */
export interface EventEnvelope<D = object> {
  specversion: '1.0';
  id: string;
  type: string;
  source: string;
  time: string;
  subject: string;
  organization?: string;
  data: D;
  traceparent?: string;
  tracestate?: string;
}

export function newEvent<D extends object>(source: string, type: string, subject: string, data: D, organization?: string): EventEnvelope<D> {
  const event: EventEnvelope<D> = { specversion: '1.0', id: newSortableId(), type, source, time: nowIso(), subject, data };
  if (organization) event.organization = organization;
  const trace = currentTraceContext();
  if (trace.traceparent) event.traceparent = trace.traceparent;
  if (trace.tracestate) event.tracestate = trace.tracestate;
  return event;
}

/** Topic of a producing service: `bindery.<service>.v1`. */
export function topicOf(service: string): string {
  return `bindery.${service}.v1`;
}

export function parseEnvelope(raw: Buffer | string | null): EventEnvelope | undefined {
  if (!raw) return undefined;
  try {
    const e = JSON.parse(raw.toString());
    if (e && typeof e.id === 'string' && typeof e.type === 'string' && typeof e.subject === 'string' && e.data) return e;
  } catch {
    // not an envelope: skipped by the consumer
  }
  return undefined;
}
