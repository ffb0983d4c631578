import { Admin, ISocketFactory, Kafka, KafkaConfig, logLevel, LogEntry } from 'kafkajs';
import { logger } from '@bindery/platform/telemetry';
import { TOPIC_RETENTION_MS } from './retention';
import { patchKafkaRequestQueue } from './kafkajs-request-queue';
import { FETCH_ENDED_ON_STOP } from './fetch-sockets';

patchKafkaRequestQueue();

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** The settings each client was made with, so a consumer can get a client of its own (see fetch-sockets.ts). */
const settingsOf = new WeakMap<Kafka, KafkaConfig>();
/** The brokers each client was made for: topics known to exist are remembered per cluster. */
const brokersOf = new WeakMap<Kafka, string>();
/** Topics seen to exist with leaders, by cluster, in this process: one process may host several services (apps/bindery). */
const topicsSeen = new Map<string, Set<string>>();

export function createKafka(brokers: string[], clientId: string): Kafka {
  const config: KafkaConfig = {
    clientId,
    brokers,
    connectionTimeout: 3000,
    requestTimeout: 10000,
    retry: { initialRetryTime: 200, retries: 8 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        // A fetch a stop ended on purpose (fetch-sockets.ts) is no connection failure.
        const chosen = rest.error === FETCH_ENDED_ON_STOP ? 'debug' : (LEVELS[level] ?? 'info');
        logger[chosen](`kafka: ${message}`, { namespace: rest.namespace, broker: rest.broker, error: rest.error });
      },
  };
  const kafka = new Kafka(config);
  settingsOf.set(kafka, config);
  brokersOf.set(kafka, [...brokers].sort().join(','));
  return kafka;
}

/**
 * A client with the settings of `kafka` whose connections are made by `socketFactory`; undefined
 * when `kafka` was not made by createKafka (its settings are unknown).
 */
export function kafkaLike(kafka: Kafka, socketFactory: ISocketFactory): Kafka | undefined {
  const config = settingsOf.get(kafka);
  if (!config) return undefined;
  const like = new Kafka({ ...config, socketFactory });
  brokersOf.set(like, brokersOf.get(kafka)!);
  return like;
}

/**
 * Creates the topics if missing (idempotent); the broker does not auto-create them. A topic is
 * created with its retention set here rather than left to the broker's default, because the
 * applied-event markers are kept for longer than it (retention.ts). A topic that exists keeps its
 * settings: an operator may have changed them on purpose.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], numPartitions = 3, timeoutMs = 30000): Promise<void> {
  const cluster = brokersOf.get(kafka) ?? '';
  const known = topicsSeen.get(cluster) ?? topicsSeen.set(cluster, new Set()).get(cluster)!;
  if (topics.every((t) => known.has(t))) return;
  const admin = kafka.admin();
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    // Usually every topic exists already: one metadata request says so.
    if (await haveLeaders(admin, topics)) {
      for (const t of topics) known.add(t);
      return;
    }
    // Two services may create the same topic at once, and a new topic's partitions get leaders a
    // moment after it is created: until every partition has one, the broker answers "does not host
    // this topic-partition". Retry until the topics are usable (or the time is up).
    for (;;) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = topics.filter((t) => !existing.has(t));
        if (missing.length)
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({ topic, numPartitions, configEntries: [{ name: 'retention.ms', value: String(TOPIC_RETENTION_MS) }] })),
          });
        if (await haveLeaders(admin, topics)) {
          for (const t of topics) known.add(t);
          return;
        }
        if (Date.now() > deadline) throw new Error(`Kafka topics ${topics.join(', ')} have no leaders after ${timeoutMs} ms`);
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await admin.disconnect();
  }
}

/** Whether every topic exists and each of its partitions has a leader (a missing topic answers false). */
async function haveLeaders(admin: Admin, topics: string[]): Promise<boolean> {
  try {
    const { topics: meta } = await admin.fetchTopicMetadata({ topics });
    return meta.length === topics.length && meta.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
  } catch {
    return false;
  }
}

/**
 * Whether the broker answers a metadata request now. (A kafkajs `connect()` can succeed against a
 * broker that never answers, so it is no health check.)
 */
export async function kafkaReachable(admin: Admin, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      admin.describeCluster(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
