import { createServer } from 'node:http';
import { grpcMessageSettings, loadConfig } from '@bindery/platform/config';
import { logger } from '@bindery/platform/telemetry';
import { grpcHealth, internalCaller, setMessageLimits } from '@bindery/platform/grpc';
import { createKafka, RunningConsumer } from '@bindery/platform/events';
import { closeHttpServer, listen, RunningHttpApp } from '@bindery/platform/service-runtime';
import { connectContent, connectContentDownloads, contentAddressSetting } from '@bindery/content/client';
import { connectSites, sitesAddressSetting } from '@bindery/sites/client';
import { connectSpecs, specsAddressSetting } from '@bindery/specs/client';
import { CachedApiSpecs } from './api-specs';
import { GrpcApiSpecs } from './grpc-api-specs';
import { CachedSource } from './cached-source';
import { GrpcSource } from './grpc-source';
import { createReader } from './reader';
import { startFreshness } from './freshness';

/** A download may take this long, whatever the request budget (100 MB at ~30 KB/s). */
const DOWNLOAD_DEADLINE_MS = 60 * 60 * 1000;

export const readerSettings = {
  READER_PORT: { kind: 'int', default: 8090, min: 0, max: 65535 },
  HTTP_BIND_ADDRESS: { kind: 'string', optional: true },
  BINDERY_READER_URL: { kind: 'url', optional: true },
  /** a Host `<organization>.<domain>` serves that organization's sites (docs/reader.md) */
  BINDERY_READER_DOMAIN: { kind: 'string', optional: true },
  REQUEST_BUDGET_MS: { kind: 'int', default: 10000, min: 100, max: 120000 },
  READER_RESOLVE_TTL_MS: { kind: 'int', default: 1000, min: 0, max: 60000 },
  READER_RENDER_CACHE_SIZE: { kind: 'int', default: 2000, min: 0, max: 1000000 },
  /** requests to sites' MCP endpoints a client address may make at once, and per minute after that (docs/reader-agents.md) */
  READER_MCP_BURST: { kind: 'int', default: 60, min: 1, max: 1000000 },
  READER_MCP_PER_MINUTE: { kind: 'int', default: 120, min: 1, max: 1000000 },
  /** the header a trusted proxy in front of the reader names the client's address in (e.g. x-forwarded-for) */
  READER_CLIENT_ADDRESS_HEADER: { kind: 'string', optional: true },
  READER_LLMS_FULL_MAX_BYTES: { kind: 'int', default: 5 * 1024 * 1024, min: 1024, max: 1024 * 1024 * 1024 },
  BINDERY_INTERNAL_SECRET: { kind: 'string', optional: true, secret: true, min: 32 },
  /** the broker whose sites and content events drop the caches at once (docs/reader.md) */
  KAFKA_BROKERS: { kind: 'list' },
  KAFKA_NAMESPACE: { kind: 'string', default: '' },
  ...sitesAddressSetting,
  ...contentAddressSetting,
  ...specsAddressSetting,
  ...grpcMessageSettings,
} as const;

/**
 * Starts the reader from its settings in `env`: published sites served over HTTP from sites' and
 * content's gRPC, caches dropped by their events. Resolves once it listens. Used by apps/reader and
 * by the monolith (apps/bindery).
 */
export async function startReader(env: NodeJS.ProcessEnv = process.env): Promise<RunningHttpApp> {
  const config = loadConfig(readerSettings, env);
  setMessageLimits({ maxSendBytes: config.GRPC_MAX_SEND_MESSAGE_BYTES, maxReceiveBytes: config.GRPC_MAX_RECEIVE_MESSAGE_BYTES });
  if (!config.BINDERY_INTERNAL_SECRET) logger.warn('BINDERY_INTERNAL_SECRET is not set: callers are passed to services unsigned');
  const publicUrl = (config.BINDERY_READER_URL ?? `http://127.0.0.1:${config.READER_PORT}`).replace(/\/$/, '');

  const sites = connectSites(config.SITES_GRPC_URL, config.REQUEST_BUDGET_MS);
  const content = connectContent(config.CONTENT_GRPC_URL, config.REQUEST_BUDGET_MS);
  const downloads = connectContentDownloads(config.CONTENT_GRPC_URL, DOWNLOAD_DEADLINE_MS);
  const specs = connectSpecs(config.SPECS_GRPC_URL, config.REQUEST_BUDGET_MS);
  const closeClients = () => {
    specs.close();
    sites.close();
    content.close();
    downloads.close();
  };
  const grpcSource = new GrpcSource({ sites, content, downloads, readerCaller: internalCaller('reader'), downloadDeadlineMs: DOWNLOAD_DEADLINE_MS });
  const source = new CachedSource(grpcSource, {
    resolveTtlMs: config.READER_RESOLVE_TTL_MS,
  });
  // API blocks: the site's organization's specs, read as the site (a page shows a new version within the TTL, at once with events)
  const apiSpecs = new CachedApiSpecs(new GrpcApiSpecs({ sites, specs, readerCaller: internalCaller('reader'), knownScope: (token) => grpcSource.scopeOfToken(token) }), {
    ttlMs: config.READER_RESOLVE_TTL_MS,
    failed: (err) => logger.warn('a spec could not be read for an API block (shown as a note)', { error: err instanceof Error ? err.message : String(err) }),
  });
  const caches = {
    invalidateSite: (siteId: string) => source.invalidateSite(siteId),
    invalidateAll: () => source.invalidateAll(),
    invalidateApiSpec: (organizationId: string, slug: string) => apiSpecs.invalidateSpec(organizationId, slug),
  };
  // Each replica its own consumer group from the end; until it has joined, the replica is not ready
  // (a change in between would show only after the TTL). A failure to start is retried.
  let freshness: RunningConsumer | undefined;
  let stopped = false;
  const kafka = createKafka(config.KAFKA_BROKERS, 'reader');
  const startEvents = (): void => {
    startFreshness({ kafka, namespace: config.KAFKA_NAMESPACE, cache: caches }).then(
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
    apiSpecs,
    publicUrl,
    publicDomain: config.BINDERY_READER_DOMAIN,
    renderCacheSize: config.READER_RENDER_CACHE_SIZE,
    mcpRateLimit: { burst: config.READER_MCP_BURST, perMinute: config.READER_MCP_PER_MINUTE },
    clientAddressHeader: config.READER_CLIENT_ADDRESS_HEADER,
    llmsFullMaxBytes: config.READER_LLMS_FULL_MAX_BYTES,
    ready: async () => (await Promise.all(readiness.map((r) => r()))).every(Boolean),
    log: (level, message, fields) => logger[level](message, fields),
  });

  const server = createServer(reader.handle);
  server.keepAliveTimeout = 65000;
  let port: number;
  try {
    port = await listen(server, config.READER_PORT, config.HTTP_BIND_ADDRESS);
  } catch (err) {
    stopped = true;
    await freshness?.stop();
    closeClients();
    throw err;
  }
  logger.info('reader listening', { port, address: config.HTTP_BIND_ADDRESS ?? 'all interfaces', publicUrl });
  console.log(`Bindery reader: ${publicUrl}/<organization>/<site basename>/`);
  return {
    port,
    async stop(budgetMs) {
      stopped = true;
      // The consumer leaves its group while the last requests finish.
      const leaving = freshness?.stop();
      await closeHttpServer(server, budgetMs);
      await leaving;
      closeClients();
    },
  };
}
