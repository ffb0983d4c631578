import { trace } from '@opentelemetry/api';
import { hostedServiceScope } from './service-scope';

/**
 * JSON-lines logger. Every line carries the active trace id, so a request can be followed across
 * services. Fields whose names suggest a secret are redacted here, the one place logs are written.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /token|secret|password|authorization|cookie|credential|private|certificate|key$/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const serviceScope = hostedServiceScope();

/**
 * Runs `work`, and everything it starts (servers, consumers, timers), with log lines naming `service`
 * instead of the process's BINDERY_SERVICE_NAME (the monolith hosts every service in one process);
 * the spans started there are exported under that name too (hosted-spans.ts).
 */
export function asService<T>(service: string, work: () => T): T {
  return serviceScope.run(service, work);
}

export function createLogger(write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const min = RANK[(process.env.LOG_LEVEL as Level) ?? 'info'] ?? RANK.info;
  const service = process.env.BINDERY_SERVICE_NAME ?? 'bindery';
  const log =
    (level: Level) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (RANK[level] < min) return;
      const span = trace.getActiveSpan()?.spanContext();
      const line: Record<string, unknown> = { time: new Date().toISOString(), level, service: serviceScope.getStore() ?? service, msg };
      if (span) {
        line.trace_id = span.traceId;
        line.span_id = span.spanId;
      }
      write(JSON.stringify({ ...line, ...(redact(fields) as object) }));
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export const logger: Logger = createLogger();
