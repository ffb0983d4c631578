/**
 * How long events stay on a topic (its `retention.ms`, set when the topic is created). A consumer
 * group's committed offsets last as long (the broker's default `offsets.retention.minutes`), so a
 * group idle longer re-reads at most this much from the beginning.
 */
export const TOPIC_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * How long an applied-event marker is kept. Longer than a topic keeps an event, so every event the
 * broker could still deliver again (a redelivery, a group re-reading from the beginning) still finds
 * its marker; twice as long leaves room for a clock and a TTL monitor that runs late.
 */
export const PROCESSED_MARKER_RETENTION_MS = 2 * TOPIC_RETENTION_MS;
