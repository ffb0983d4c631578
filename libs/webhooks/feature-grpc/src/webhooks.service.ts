import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { newId } from '@bindery/shared/ids';
import { characterCount } from '@bindery/shared/text';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { newWebhookSecret, WEBHOOK_EVENT_TYPES, WebhooksEvents, webhookUrlProblem } from '@bindery/webhooks/client';
import type { WebhookRecord } from '@bindery/webhooks/domain';
import { assertWebhookAdmin } from './webhook-access';
import { nowOf, SOURCE, WebhooksDeps } from './webhooks-deps';

export const MAX_DESCRIPTION = 256;

function checkUrl(url: string): string {
  const problem = webhookUrlProblem(url);
  if (problem) throw invalid(problem);
  return url;
}

function checkEvents(events: string[]): string[] {
  const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) throw invalid(`events: unknown event type ${JSON.stringify(unknown[0])}.`);
  const unique = [...new Set(events)];
  if (!unique.length) throw invalid('events must name at least one event type.');
  return unique;
}

function checkDescription(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const d = description.trim();
  if (characterCount(d) > MAX_DESCRIPTION) throw invalid(`description must be at most ${MAX_DESCRIPTION} characters.`);
  return d || undefined;
}

const changed = (w: Pick<WebhookRecord, '_id' | 'organizationId' | 'active'>, reason?: string) => ({
  organizationId: w.organizationId,
  webhookId: w._id,
  active: w.active,
  ...(reason ? { reason } : {}),
});

export async function listWebhooks(deps: WebhooksDeps, caller: Caller, organizationId: string, page: { page?: string; limit?: number }) {
  await assertWebhookAdmin(deps, caller, organizationId);
  const limit = resolveLimit(page.limit);
  const [rows, count] = await Promise.all([deps.webhooks.page(organizationId, limit, decodeCursor(page.page)), deps.webhooks.count(organizationId)]);
  return toPage(
    rows,
    limit,
    count,
    (r) => ({ k: r.createdAt, id: r._id }),
    (r) => r,
  );
}

export async function getWebhook(deps: WebhooksDeps, caller: Caller, organizationId: string, id: string): Promise<WebhookRecord> {
  await assertWebhookAdmin(deps, caller, organizationId);
  const webhook = await deps.webhooks.get(organizationId, id);
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

/** Creates a webhook (organization admins); its secret is answered here only. Side effect: webhooks.webhook.created. */
export async function createWebhook(
  deps: WebhooksDeps,
  caller: Caller,
  organizationId: string,
  input: { url: string; events: string[]; active?: boolean; description?: string },
): Promise<WebhookRecord> {
  await assertWebhookAdmin(deps, caller, organizationId);
  const now = nowOf(deps);
  const description = checkDescription(input.description);
  const record: WebhookRecord = {
    _id: newId(),
    organizationId,
    url: checkUrl(input.url),
    events: checkEvents(input.events),
    active: input.active ?? true,
    secret: newWebhookSecret(),
    ...(description ? { description } : {}),
    createdBy: caller.userId,
    createdAt: now,
    updatedAt: now,
  };
  await deps.webhooks.insert(record, [WebhooksEvents.webhookCreated.create(SOURCE, record._id, changed(record), organizationId)]);
  return record;
}

/** Changes a webhook; turning it active again clears the reason Bindery disabled it for. Side effect: webhooks.webhook.updated. */
export async function updateWebhook(
  deps: WebhooksDeps,
  caller: Caller,
  organizationId: string,
  id: string,
  patch: { url?: string; events?: string[]; active?: boolean; description?: string | null },
): Promise<WebhookRecord> {
  const current = await getWebhook(deps, caller, organizationId, id);
  const set: Partial<WebhookRecord> = { updatedAt: nowOf(deps) };
  const unset: Array<keyof WebhookRecord> = [];
  if (patch.url !== undefined) set.url = checkUrl(patch.url);
  if (patch.events !== undefined) set.events = checkEvents(patch.events);
  if (patch.active !== undefined) {
    set.active = patch.active;
    if (patch.active) unset.push('disabledReason');
  }
  if (patch.description === null) unset.push('description');
  else if (patch.description !== undefined) {
    const d = checkDescription(patch.description);
    if (d) set.description = d;
    else unset.push('description');
  }
  const event = WebhooksEvents.webhookUpdated.create(SOURCE, id, changed({ ...current, ...set }), organizationId);
  const updated = await deps.webhooks.update(organizationId, id, set, unset, [event]);
  if (!updated) throw notFound('Webhook');
  return updated;
}

/** Deletes a webhook (its pending deliveries are skipped); false when there was none. Side effect: webhooks.webhook.deleted. */
export async function deleteWebhook(deps: WebhooksDeps, caller: Caller, organizationId: string, id: string): Promise<boolean> {
  await assertWebhookAdmin(deps, caller, organizationId);
  const event = WebhooksEvents.webhookDeleted.create(SOURCE, id, { organizationId, webhookId: id, active: false }, organizationId);
  return deps.webhooks.remove(organizationId, id, nowOf(deps), [event]);
}
