import type { OrgAccessProjection } from '@bindery/identity/projection';
import { Db, Transaction } from '@bindery/platform/mongo';
import type { SafeFetch } from '@bindery/platform/outbound-http';
import type { RunStore } from '@bindery/platform/runs';
import type { DeliveriesRepository, WebhooksRepository } from '@bindery/webhooks/data-access';

/** What webhooks' use cases work with; built once at start (webhooks-server.ts). */
export interface WebhooksDeps {
  db: Db;
  webhooks: WebhooksRepository;
  deliveries: DeliveriesRepository;
  /** organization roles, from identity's events (decision 0004) */
  access: OrgAccessProjection;
  runs: RunStore;
  clock: () => number;
  /** one multi-document transaction, retried on transient conflicts; wakes the relay after the commit */
  transaction: Transaction;
  /** the outbound guard; replaceable in tests only */
  fetch: SafeFetch;
  /** loopback and private receivers allowed (BINDERY_OUTBOUND_ALLOW_PRIVATE=true) */
  allowPrivate: boolean;
  /** the API's public base URL, for the `urls.location` of the resources a payload names */
  publicUrl: string;
}

export const SOURCE = 'bindery/webhooks';

export const nowOf = (deps: Pick<WebhooksDeps, 'clock'>) => new Date(deps.clock()).toISOString();

/** The run kind that sends one delivery (input `{deliveryId}`). */
export const DELIVER_RUN = 'webhooks.deliver';

/**
 * Attempts a delivery run may make: far more than a day of backoff holds (5 s doubled up to 5 min: about
 * 290 in 24 h); the day itself ends the retries (retry-policy), not this count.
 */
export const DELIVER_MAX_ATTEMPTS = 1000;
