import { createServer } from 'node:http';
import { grpcMessageSettings, loadConfig } from '@bindery/platform/config';
import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { grpcHealth, internalCaller, setMessageLimits } from '@bindery/platform/grpc';
import { connectContent, connectContentDownloads, contentAddressSetting } from '@bindery/content/client';
import { connectSites, sitesAddressSetting } from '@bindery/sites/client';
import { createKafka, RunningConsumer } from '@bindery/platform/events';
import { CachedSource, createReader, GrpcSource, startFreshness } from '@bindery/reader/site';

const STOP_BUDGET_MS = 1900;
/** A download may take this long, whatever the request budget (100 MB at ~30 KB/s). */
const DOWNLOAD_DEADLINE_MS = 60 * 60 * 1000;

function main() {
  const config = loadConfig({
    READER_PORT: { kind: 'int', default: 8090, min: 0, max: 65535 },
    HTTP_BIND_ADDRESS: { kind: 'string', optional: true },
    BINDERY_READER_URL: { kind: 'url', optional: true },
    /** a Host `<organization>.<domain>` serves that organization's sites (docs/reader.md) */
    BINDERY_READER_DOMAIN: { kind: 'string', optional: true },
    REQUEST_BUDGET_MS: { kind: 'int', default: 10000, min: 100, max: 120000 },
    READER_RESOLVE_TTL_MS: { kind: 'int', default: 1000, min: 0, max: 60000 },
    READER_RENDER_CACHE_SIZE: { kind: 'int', default: 2000, min: 0, max: 1000000 },
    BINDERY_INTERNAL_SECRET: { kind: 'string', optional: true, secret: true, min: 32 },
    /** the broker whose sites and content events drop the caches at once (docs/reader.md) */
    KAFKA_BROKERS: { kind: 'list' },
    KAFKA_NAMESPACE: { kind: 'string', default: '' },
    ...sitesAddressSetting,
    ...contentAddressSetting,
    ...grpcMessageSettings,
  });
  setMessageLimits({ maxSendBytes: config.GRPC_MAX_SEND_MESSAGE_BYTES, maxReceiveBytes: config.GRPC_MAX_RECEIVE_MESSAGE_BYTES });
  if (!config.BINDERY_INTERNAL_SECRET) logger.warn('BINDERY_INTERNAL_SECRET is not set: callers are passed to services unsigned');
  const publicUrl = (config.BINDERY_READER_URL ?? `http://127.0.0.1:${config.READER_PORT}`).replace(/\/$/, '');

  const sites = connectSites(config.SITES_GRPC_URL, config.REQUEST_BUDGET_MS);
  const content = connectContent(config.CONTENT_GRPC_URL, config.REQUEST_BUDGET_MS);
  const downloads = connectContentDownloads(config.CONTENT_GRPC_URL, DOWNLOAD_DEADLINE_MS);
  const source = new CachedSource(new GrpcSource({ sites, content, downloads, readerCaller: internalCaller('reader'), downloadDeadlineMs: DOWNLOAD_DEADLINE_MS }), {
    resolveTtlMs: config.READER_RESOLVE_TTL_MS,
  });
  // Each replica its own consumer group from the end; until it has joined, the replica is not ready
  // (a change in between would show only after the TTL). A failure to start is retried.
  let freshness: RunningConsumer | undefined;
  let stopped = false;
  const kafka = createKafka(config.KAFKA_BROKERS, 'reader');
  const startEvents = (): void => {
    startFreshness({ kafka, namespace: config.KAFKA_NAMESPACE, cache: source }).then(
      (running) => {
        freshness = running;
        if (stopped) void running.stop();
      },
      (err) => {
        logger.warn('the reader could not follow events yet; retrying (answers stay within the resolution TTL)', { error: err instanceof Error ? err.message : String(err) });
        if (!stopped) setTimeout(startEvents, 2000).unref();
      },
    );
  };
  startEvents();
  const readiness = [grpcHealth(config.SITES_GRPC_URL), grpcHealth(config.CONTENT_GRPC_URL), async () => !!freshness?.health.joined];
  const reader = createReader({
    source,
    publicUrl,
    publicDomain: config.BINDERY_READER_DOMAIN,
    renderCacheSize: config.READER_RENDER_CACHE_SIZE,
    ready: async () => (await Promise.all(readiness.map((r) => r()))).every(Boolean),
    log: (level, message, fields) => logger[level](message, fields),
  });

  const server = createServer(reader.handle);
  server.keepAliveTimeout = 65000;
  const onListening = () => {
    logger.info('reader listening', { port: config.READER_PORT, address: config.HTTP_BIND_ADDRESS ?? 'all interfaces', publicUrl });
    console.log(`Bindery reader: ${publicUrl}/<site basename>/`);
  };
  if (config.HTTP_BIND_ADDRESS) server.listen(config.READER_PORT, config.HTTP_BIND_ADDRESS, onListening);
  else server.listen(config.READER_PORT, onListening);

  // In-flight requests finish; idle keep-alive connections close at once, every connection at STOP_BUDGET_MS - 400.
  const stop = () => {
    stopped = true;
    const leaving = freshness?.stop();
    server.close(async () => {
      await leaving;
      sites.close();
      content.close();
      downloads.close();
      flushTelemetry().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 50).unref();
    setTimeout(() => server.closeAllConnections(), STOP_BUDGET_MS - 400).unref();
    setTimeout(() => process.exit(0), STOP_BUDGET_MS).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

try {
  main();
} catch (err) {
  logger.error('reader failed to start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}
