import { connectIdentity, identityAddressSetting } from '@bindery/identity/client';
import { createOrgAccessProjection, IdentitySource, identityAccessSource, orgAccessIndexes } from '@bindery/identity/projection';
import { Db, transactionsRelayingEvents } from '@bindery/platform/mongo';
import { outboundPolicyFromEnv, SafeFetch, safeFetch } from '@bindery/platform/outbound-http';
import { defineService } from '@bindery/platform/service-runtime';
import { DeliveriesRepository, OUTBOX_COLLECTIONS, WEBHOOKS_INDEXES, WebhooksRepository } from '@bindery/webhooks/data-access';
import { runDeliver } from './deliver.run';
import { WEBHOOK_SOURCES, webhookSourceBatch, webhookSourceHandlers } from './event-sources';
import { settleEndedDeliveries, SETTLE_RUN } from './settle';
import { DELIVER_RUN, WebhooksDeps } from './webhooks-deps';
import { webhooksGrpc } from './webhooks-grpc';

export interface WebhooksServiceOptions {
  /** where the access projection confirms what it cannot prove (identity unless a test says otherwise) */
  accessSource?: (db: Db) => IdentitySource;
  clock?: () => number;
  fetch?: SafeFetch;
}

/**
 * Webhooks: an organization's outgoing webhooks. A consumer turns the services' events into
 * deliveries; each is sent by a durable run, signed, through the outbound guard, one at a time per
 * webhook and resource, retried for a day (docs/webhooks.md).
 */
export function webhooksServiceWith(options: WebhooksServiceOptions = {}) {
  let identity: ReturnType<typeof connectIdentity> | undefined;
  const clock = options.clock ?? Date.now;
  return defineService({
    name: 'webhooks',
    settings: {
      ...identityAddressSetting,
      /** the API's public base URL: payloads name resources by their `urls.location` under it */
      BINDERY_PUBLIC_URL: { kind: 'url', default: 'http://127.0.0.1:8080' },
      /** deadline of a call to identity made while serving a call */
      WEBHOOKS_CALL_DEADLINE_MS: { kind: 'int', default: 5000, min: 100, max: 60000 },
      /** how long an access decision's reads are remembered; 0: not at all */
      WEBHOOKS_ACCESS_CACHE_MS: { kind: 'int', default: 250, min: 0, max: 1000 },
      /** how often deliveries whose run ended without them (cancelled, out of attempts) are failed and their queue handed on */
      WEBHOOKS_SETTLE_EVERY_MS: { kind: 'int', default: 60000, min: 100, max: 3600000 },
      /**
       * deliveries one replica sends at once (the runs' shared setting, with this service's default):
       * a delivery mostly waits on its receiver, so two at a time let one slow receiver hold up every
       * other webhook (a 500-event burst: 9.5 s p50 with 8 against 19.1 s with 2, docs/benchmarks.md)
       */
      RUNS_CONCURRENCY: { kind: 'int', default: 16, min: 1, max: 64 },
      /** "true" lets webhooks reach loopback and private addresses (tests, private networks) */
      BINDERY_OUTBOUND_ALLOW_PRIVATE: { kind: 'string', optional: true },
    },
    indexes: { ...WEBHOOKS_INDEXES, ...orgAccessIndexes() },
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded, config, runs }): WebhooksDeps => {
      const source = options.accessSource?.(db) ?? identityAccessSource((identity = connectIdentity(config.IDENTITY_GRPC_URL, config.WEBHOOKS_CALL_DEADLINE_MS)), 'webhooks');
      return {
        db,
        webhooks: new WebhooksRepository(db, eventsRecorded),
        deliveries: new DeliveriesRepository(db),
        access: createOrgAccessProjection(db, { source, cacheMs: config.WEBHOOKS_ACCESS_CACHE_MS }),
        runs,
        clock,
        transaction: transactionsRelayingEvents(db, eventsRecorded),
        fetch: options.fetch ?? safeFetch,
        allowPrivate: outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: config.BINDERY_OUTBOUND_ALLOW_PRIVATE }).allowPrivate,
        publicUrl: config.BINDERY_PUBLIC_URL,
      };
    },
    dispose: async () => {
      identity?.close();
    },
    grpc: (deps) => [webhooksGrpc(deps)],
    consumers: (deps) => {
      const handlers = webhookSourceHandlers(deps);
      return {
        'webhooks.identity-access': { from: ['identity'], handlers: deps.access.handlers, liveness: deps.access.liveness, applied: deps.access.forget },
        // a fetched batch of a partition is recorded in one transaction (dispatch-batch.ts)
        'webhooks.deliveries': { from: WEBHOOK_SOURCES, handlers, batch: webhookSourceBatch(deps, handlers) },
      };
    },
    runs: (deps, config) => ({
      handlers: {
        [DELIVER_RUN]: async (input, ctx) => runDeliver(deps, input as unknown as { deliveryId: string }, ctx),
        [SETTLE_RUN]: async () => ({ settled: await settleEndedDeliveries(deps) }),
      },
      schedules: [{ name: SETTLE_RUN, kind: SETTLE_RUN, everyMs: config.WEBHOOKS_SETTLE_EVERY_MS }],
    }),
  });
}

export const webhooksService = webhooksServiceWith();
