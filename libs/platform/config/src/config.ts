/**
 * Environment configuration, validated once at start: every problem is reported together, and a
 * service with a bad setting does not start. Every variable is documented in docs/configuration.md.
 */
type Kind = 'string' | 'int' | 'bool' | 'url' | 'list';
type ValueOf<K extends Kind> = K extends 'int' ? number : K extends 'bool' ? boolean : K extends 'list' ? string[] : string;

export interface Setting<K extends Kind = Kind> {
  kind: K;
  /** Used when the variable is unset; without one the variable is required. */
  default?: ValueOf<K>;
  optional?: boolean;
  min?: number;
  max?: number;
  /** Secrets are never echoed in error messages. */
  secret?: boolean;
}

export type Schema = Record<string, Setting>;
export type Config<S extends Schema> = {
  [N in keyof S]: S[N] extends Setting<infer K> ? (S[N]['optional'] extends true ? ValueOf<K> | undefined : ValueOf<K>) : never;
};

export class ConfigError extends Error {}

function parse(name: string, raw: string, s: Setting): { value?: unknown; problem?: string } {
  const shown = s.secret ? '(secret)' : JSON.stringify(raw);
  switch (s.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(raw)) return { problem: `${name} must be a whole number, got ${shown}` };
      const n = Number(raw);
      if (s.min !== undefined && n < s.min) return { problem: `${name} must be at least ${s.min}` };
      if (s.max !== undefined && n > s.max) return { problem: `${name} must be at most ${s.max}` };
      return { value: n };
    }
    case 'bool':
      if (raw === 'true' || raw === '1') return { value: true };
      if (raw === 'false' || raw === '0') return { value: false };
      return { problem: `${name} must be true or false, got ${shown}` };
    case 'url':
      try {
        new URL(raw);
        return { value: raw };
      } catch {
        return { problem: `${name} must be a URL` };
      }
    case 'list':
      return {
        value: raw
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      };
    default:
      if (s.min !== undefined && raw.length < s.min) return { problem: `${name} must have at least ${s.min} characters` };
      return { value: raw };
  }
}

export function loadConfig<S extends Schema>(schema: S, env: NodeJS.ProcessEnv = process.env): Config<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(schema)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (setting.default !== undefined) out[name] = setting.default;
      else if (!setting.optional) problems.push(`${name} is required`);
      continue;
    }
    const { value, problem } = parse(name, raw, setting);
    if (problem) problems.push(problem);
    else out[name] = value;
  }
  if (problems.length) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return out as Config<S>;
}

const MIB = 1024 * 1024;

/**
 * The largest gRPC message a process sends and accepts, on its servers and clients alike (the
 * gateway too). 64 MiB holds the largest single answer measured (a 10,000-page revision's page tree,
 * docs/benchmarks.md) several times over; file bytes travel in streamed chunks and never approach it.
 * Below 4 MiB (grpc's own default) nothing large would pass; beyond 1 GiB a message could not be held
 * in memory safely. Why these numbers: docs/configuration.md.
 */
export const grpcMessageSettings = {
  GRPC_MAX_SEND_MESSAGE_BYTES: { kind: 'int', default: 64 * MIB, min: 4 * MIB, max: 1024 * MIB },
  GRPC_MAX_RECEIVE_MESSAGE_BYTES: { kind: 'int', default: 64 * MIB, min: 4 * MIB, max: 1024 * MIB },
} satisfies Schema;

/** Settings every service shares. */
export const commonSettings = {
  MONGODB_URL: { kind: 'string', secret: true },
  KAFKA_BROKERS: { kind: 'list' },
  KAFKA_NAMESPACE: { kind: 'string', default: '' },
  LOG_LEVEL: { kind: 'string', default: 'info' },
  GRPC_DEADLINE_MS: { kind: 'int', default: 5000, min: 100, max: 120000 },
  /**
   * how often the outbox relay sweeps for unsent events that nothing woke it for (a local write and a
   * change stream over the outbox collections wake it at once; docs/events.md)
   */
  OUTBOX_POLL_MS: { kind: 'int', default: 30_000, min: 10, max: 3_600_000 },
  /** handler runs per delivered event before it goes to the dead letters (docs/events.md) */
  EVENT_HANDLER_ATTEMPTS: { kind: 'int', default: 5, min: 1, max: 20 },
  /** pause after a handler's first failure, doubling up to 2 s */
  EVENT_RETRY_BACKOFF_MS: { kind: 'int', default: 100, min: 0, max: 2000 },
  /** how long a starting service waits for its consumers to catch up before it reports SERVING anyway */
  CONSUMER_CATCH_UP_MS: { kind: 'int', default: 30000, min: 0, max: 600000 },
  BINDERY_INTERNAL_SECRET: { kind: 'string', optional: true, secret: true, min: 32 },
  /** the address the gRPC server listens on: loopback unless a container or host must reach it */
  GRPC_BIND_ADDRESS: { kind: 'string', default: '127.0.0.1' },
  ...grpcMessageSettings,
} satisfies Schema;

/** `<NAME>_GRPC_PORT`, `<NAME>_DB`, `<NAME>_GRPC_URL`: the settings of a service and its callers share this prefix. */
export function envPrefix(serviceName: string): string {
  return serviceName.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}
