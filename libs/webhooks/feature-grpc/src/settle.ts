import { handOnTurn } from './dispatch';
import type { WebhooksDeps } from './webhooks-deps';

/** The run kind that settles deliveries whose run ended without them (a schedule, WEBHOOKS_SETTLE_EVERY_MS). */
export const SETTLE_RUN = 'webhooks.settle-ended';

const BATCH = 500;

/**
 * A delivery run can end without its handler ending the delivery: cancelled (before or while it
 * sends), out of attempts, or its worker dead on the last attempt. Such a delivery would hold its
 * queue's turn for ever; here it is recorded `failed` and the turn handed to the next delivery of the
 * queue, in one transaction (conditional on the delivery still being pending with that run).
 * Answers how many were settled.
 */
export async function settleEndedDeliveries(deps: WebhooksDeps): Promise<number> {
  let settled = 0;
  for await (const batch of deps.deliveries.pendingBatches(BATCH)) {
    const ended = new Set((await deps.runs.endedAmong(batch.flatMap((d) => (d.runId ? [d.runId] : [])))).map((r) => r._id));
    for (const delivery of batch) {
      if (!delivery.runId || !ended.has(delivery.runId)) continue;
      const runId = delivery.runId;
      const done = await deps.transaction(async (s) => {
        if (!(await deps.deliveries.failWithRun(delivery._id, runId, s))) return false;
        await handOnTurn(deps, delivery.queue, s);
        return true;
      });
      if (done) settled++;
    }
  }
  return settled;
}

/**
 * A delivery to a webhook succeeded: its receiver answers again, so the webhook's deliveries waiting
 * for a retry later than now (a backoff of up to 5 minutes) are made due now instead of waiting it out.
 */
export async function hurryRetries(deps: WebhooksDeps, webhookId: string): Promise<number> {
  const runIds = await deps.deliveries.retryingAfter(webhookId, new Date(deps.clock()).toISOString());
  return runIds.length ? deps.runs.hurry(runIds) : 0;
}
