import { ChangeRequestEvents } from '@bindery/change-requests/client';
import { ContentEvents } from '@bindery/content/client';
import { GitSyncEvents } from '@bindery/git-sync/client';
import { IdentityEvents } from '@bindery/identity/client';
import { ApplyContext, BatchHandler, EventEnvelope, eventHandlers, EventHandlers, on } from '@bindery/platform/events';
import { isInternalCaller } from '@bindery/platform/grpc';
import { sessionOf } from '@bindery/platform/mongo';
import { SitesEvents } from '@bindery/sites/client';
import type { WebhookEvent, WebhookEventType } from '@bindery/webhooks/client';
import { recordDeliveries } from './dispatch';
import { recordDeliveryBatch, SourcedEvent } from './dispatch-batch';
import type { WebhooksDeps } from './webhooks-deps';

/** The Kafka topics (by service) whose events webhooks turns into deliveries. */
export const WEBHOOK_SOURCES = ['content', 'change-requests', 'sites', 'git-sync', 'identity'];

type Mapper<T> = (data: T) => WebhookEvent | undefined;

const space =
  (type: WebhookEventType): Mapper<{ organizationId: string; spaceId: string; changedFields: string[] }> =>
  (d) => ({
    type,
    organizationId: d.organizationId,
    resource: { object: 'space', id: d.spaceId },
    data: { space: d.spaceId, ...(d.changedFields.length ? { changedFields: d.changedFields } : {}) },
  });

const changeRequest =
  (
    type: WebhookEventType,
  ): Mapper<{
    organizationId: string;
    spaceId: string;
    changeRequestId: string;
    number: number;
    status: string;
    changedFields: string[];
    revisionMerged?: string;
    actor: string;
  }> =>
  (d) =>
    // change-requests announcing the states it holds for its consumers' copies (nothing changed): no event of the organization
    type === 'change_request.updated' && !d.changedFields.length && isInternalCaller(d.actor)
      ? undefined
      : {
          type,
          organizationId: d.organizationId,
          resource: { object: 'change-request', id: d.changeRequestId, spaceId: d.spaceId },
          data: {
            space: d.spaceId,
            changeRequest: d.changeRequestId,
            number: d.number,
            status: d.status,
            ...(d.changedFields.length ? { changedFields: d.changedFields } : {}),
            ...(d.revisionMerged ? { revision: d.revisionMerged } : {}),
          },
        };

const site =
  (type: WebhookEventType): Mapper<{ organizationId: string; siteId: string; changes?: string[] }> =>
  (d) => ({
    type,
    organizationId: d.organizationId,
    resource: { object: 'site', id: d.siteId },
    data: { site: d.siteId, ...(d.changes?.length ? { changes: d.changes } : {}) },
  });

const member =
  (type: WebhookEventType): Mapper<{ organizationId: string; userId: string; role?: string; previousRole?: string }> =>
  (d) => ({
    type,
    organizationId: d.organizationId,
    resource: { object: 'member', id: d.userId },
    data: { user: d.userId, ...('role' in d ? { role: d.role ?? null } : {}), ...(d.previousRole !== undefined ? { previousRole: d.previousRole } : {}) },
  });

/** A batch runs the handlers to map its events only: they hand the public events to `collect`. */
interface CollectingContext extends ApplyContext {
  collect?: (item: SourcedEvent) => void;
}

/**
 * The consumer's batch handler: maps each event with `handlers` (the one table below), then records
 * all their deliveries in the batch's transaction (dispatch-batch.ts).
 */
export function webhookSourceBatch(deps: WebhooksDeps, handlers: EventHandlers): BatchHandler {
  return async (events, context) => {
    const items: SourcedEvent[] = [];
    const collecting: CollectingContext = { ...context, collect: (item) => items.push(item) };
    for (const event of events) await handlers[event.type]?.(event, collecting);
    const session = sessionOf(context);
    if (session) await recordDeliveryBatch(deps, items, session);
    else await deps.transaction((s) => recordDeliveryBatch(deps, items, s));
  };
}

/**
 * The one table from the services' events to the public ones. An internal event without an
 * organization (written before the field existed) is not delivered.
 */
export function webhookSourceHandlers(deps: WebhooksDeps): EventHandlers {
  const deliver =
    <T>(map: Mapper<T>) =>
    async (data: T, event: EventEnvelope, ctx: CollectingContext) => {
      const mapped = map(data);
      if (!mapped?.organizationId) return;
      const source = { id: event.id, time: event.time };
      if (ctx.collect) ctx.collect({ event: mapped, source });
      else await recordDeliveries(deps, mapped, source, sessionOf(ctx));
    };
  return eventHandlers(
    on(ContentEvents.spaceCreated, deliver(space('space.created'))),
    on(ContentEvents.spaceUpdated, deliver(space('space.updated'))),
    on(ContentEvents.spaceDeleted, deliver(space('space.deleted'))),
    on(ContentEvents.spaceRestored, deliver(space('space.restored'))),
    on(
      ContentEvents.revisionCreated,
      deliver((d) =>
        d.isCurrent
          ? {
              type: 'space.content.updated',
              organizationId: d.organizationId,
              resource: { object: 'space', id: d.spaceId },
              data: {
                space: d.spaceId,
                revision: d.revisionId,
                ...(d.parentRevisionId ? { parentRevision: d.parentRevisionId } : {}),
                changedPages: d.changedPages,
                deletedPages: d.deletedPages,
              },
            }
          : undefined,
      ),
    ),
    on(ChangeRequestEvents.created, deliver(changeRequest('change_request.created'))),
    on(ChangeRequestEvents.updated, deliver(changeRequest('change_request.updated'))),
    on(ChangeRequestEvents.merged, deliver(changeRequest('change_request.merged'))),
    on(ChangeRequestEvents.archived, deliver(changeRequest('change_request.archived'))),
    on(SitesEvents.siteCreated, deliver(site('site.created'))),
    on(SitesEvents.siteUpdated, deliver(site('site.updated'))),
    on(SitesEvents.sitePublished, deliver(site('site.published'))),
    on(SitesEvents.siteUnpublished, deliver(site('site.unpublished'))),
    on(SitesEvents.siteDeleted, deliver(site('site.deleted'))),
    on(
      GitSyncEvents.syncCompleted,
      deliver((d) => ({
        type: 'git_sync.completed',
        organizationId: d.organizationId,
        resource: { object: 'space', id: d.spaceId },
        data: { space: d.spaceId, direction: d.direction, commit: d.commit, revision: d.revisionId, changed: d.changed },
      })),
    ),
    on(IdentityEvents.memberAdded, deliver(member('member.added'))),
    on(IdentityEvents.memberRoleChanged, deliver(member('member.role_changed'))),
    on(IdentityEvents.memberRemoved, deliver(member('member.removed'))),
  );
}
