import { backoffAfter, PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import { signatureHeader, WebhooksEvents } from '@bindery/webhooks/client';
import { DELIVERY_TIMEOUT_MS, DeliveryAttemptRecord, DeliveryRecord, responseExcerpt, RESPONSE_EXCERPT_BYTES, retryWindowOver } from '@bindery/webhooks/domain';
import { handOnTurn } from './dispatch';
import { hurryRetries } from './settle';
import { nowOf, SOURCE, WebhooksDeps } from './webhooks-deps';

interface AttemptOutcome {
  ok: boolean;
  attempt: DeliveryAttemptRecord;
}

/** Reads at most `limit` bytes of an answer, then lets the rest go. */
async function firstBytes(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit + 1);
}

/** Why a request got no answer, in words that name no secret (the URL's path and query may hold a token: never echoed). */
function failureOf(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  if (e?.name === 'OutboundAddressRefusedError') return 'the receiver’s address is not public (refused by the outbound guard)';
  if (e?.name === 'OutboundSchemeRefusedError') return 'only http and https receivers are allowed';
  if (e?.cause?.code) return `connection failed (${e.cause.code})`;
  return 'connection failed';
}

/** One POST of the delivery's payload, signed; never follows a redirect (a 3xx is a failed attempt). */
async function attemptDelivery(deps: WebhooksDeps, delivery: DeliveryRecord, url: string, secret: string, signal: AbortSignal): Promise<AttemptOutcome> {
  const body = JSON.stringify(delivery.payload);
  const started = deps.clock();
  const at = new Date(started).toISOString();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Bindery-Webhooks/1',
    'x-bindery-event': delivery.eventType,
    'x-bindery-event-id': delivery.eventId,
    'x-bindery-delivery': delivery._id,
    'x-bindery-signature': signatureHeader(secret, Math.floor(started / 1000), body),
  };
  try {
    const response = await deps.fetch(url, { method: 'POST', headers, body, redirect: 'manual', timeoutMs: DELIVERY_TIMEOUT_MS, allowPrivate: deps.allowPrivate, signal });
    const excerpt = responseExcerpt(await firstBytes(response, RESPONSE_EXCERPT_BYTES));
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      attempt: {
        at,
        status: response.status,
        durationMs: deps.clock() - started,
        ...(ok ? {} : { error: `the receiver answered ${response.status}` }),
        ...(excerpt ? { responseExcerpt: excerpt } : {}),
      },
    };
  } catch (err) {
    signal.throwIfAborted();
    return { ok: false, attempt: { at, status: 0, durationMs: deps.clock() - started, error: failureOf(err) } };
  }
}

/**
 * The run that sends one delivery. Delivered: the queue's next delivery gets its turn. Failed: the
 * attempt is recorded and the run throws, so the runs library retries it with its backoff — until a
 * day after the first attempt; then the delivery fails, the webhook is disabled with the reason, and
 * the queue moves on (its remaining deliveries are skipped, the webhook being inactive).
 */
export async function runDeliver(deps: WebhooksDeps, input: { deliveryId: string }, ctx: RunContext): Promise<Record<string, unknown>> {
  const delivery = await deps.deliveries.findById(input.deliveryId);
  if (!delivery || delivery.status !== 'pending' || delivery.runId !== ctx.run._id) return { status: delivery?.status ?? 'missing' };
  const webhook = await deps.webhooks.byId(delivery.webhookId);
  if (!webhook || !webhook.active) {
    await deps.transaction(async (s) => {
      await deps.deliveries.skip(delivery._id, s);
      await handOnTurn(deps, delivery.queue, s);
    });
    return { status: 'skipped' };
  }
  const { ok, attempt } = await attemptDelivery(deps, delivery, webhook.url, webhook.secret, ctx.signal);
  if (ok) {
    await deps.transaction(async (s) => {
      if (await deps.deliveries.recordAttempt(delivery._id, ctx.run._id, attempt, { status: 'delivered', deliveredAt: attempt.at }, s)) await handOnTurn(deps, delivery.queue, s);
    });
    // The receiver answers again: the webhook's other deliveries need not wait out their backoff.
    const hurried = await hurryRetries(deps, webhook._id).catch(() => 0);
    return { status: 'delivered', httpStatus: attempt.status, ...(hurried ? { hurried } : {}) };
  }
  const firstAt = delivery.attempts[0]?.at ?? attempt.at;
  if (!retryWindowOver(firstAt, deps.clock())) {
    // when the runs library will try again (after this attempt's backoff): a success meanwhile may bring it forward
    const nextAttemptAt = new Date(deps.clock() + backoffAfter(ctx.attempt, deps.runs.timings)).toISOString();
    await deps.deliveries.recordAttempt(delivery._id, ctx.run._id, attempt, { nextAttemptAt });
    throw new Error(attempt.error ?? 'delivery failed');
  }
  const reason = `Deliveries failed for a day (last: ${attempt.error ?? 'failed'}); turned off on ${nowOf(deps)}.`;
  await deps.transaction(async (s) => {
    if (!(await deps.deliveries.recordAttempt(delivery._id, ctx.run._id, attempt, { status: 'failed' }, s))) return;
    const event = WebhooksEvents.webhookDisabled.create(
      SOURCE,
      webhook._id,
      { organizationId: webhook.organizationId, webhookId: webhook._id, active: false, reason },
      webhook.organizationId,
    );
    await deps.webhooks.disable(webhook._id, reason, nowOf(deps), [event], s);
    await handOnTurn(deps, delivery.queue, s);
  });
  throw new PermanentRunFailure(reason);
}
