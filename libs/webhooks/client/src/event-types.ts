/**
 * The events a webhook can ask for, by group. Each comes from one internal event (the services'
 * Kafka topics); the mapping lives beside the consumer that reads them (feature-grpc event-sources).
 */
export const WEBHOOK_EVENT_GROUPS = {
  space: ['space.created', 'space.updated', 'space.deleted', 'space.restored'],
  content: ['space.content.updated'],
  change_request: ['change_request.created', 'change_request.updated', 'change_request.merged', 'change_request.archived'],
  site: ['site.created', 'site.updated', 'site.published', 'site.unpublished', 'site.deleted'],
  git_sync: ['git_sync.completed'],
  member: ['member.added', 'member.role_changed', 'member.removed'],
} as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_GROUPS)[keyof typeof WEBHOOK_EVENT_GROUPS][number];

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(WEBHOOK_EVENT_GROUPS).flat();

/** What a delivery is about: the resource it names, with its API address. */
export interface WebhookResource {
  object: 'space' | 'change-request' | 'site' | 'member';
  id: string;
  /** the space holding a change request, or whose content changed */
  spaceId?: string;
}

/** A public event, built from an internal one; `data` holds ids, names and states — never a secret. */
export interface WebhookEvent {
  type: WebhookEventType;
  organizationId: string;
  resource: WebhookResource;
  data: Record<string, unknown>;
}

/** The API address of a resource (the gateway's `urls.location`). */
export function resourceLocation(publicUrl: string, organizationId: string, resource: WebhookResource): string {
  const base = publicUrl.replace(/\/+$/, '');
  const e = encodeURIComponent;
  switch (resource.object) {
    case 'space':
      return `${base}/v1/spaces/${e(resource.id)}`;
    case 'change-request':
      return `${base}/v1/spaces/${e(resource.spaceId ?? '')}/change-requests/${e(resource.id)}`;
    case 'site':
      return `${base}/v1/orgs/${e(organizationId)}/sites/${e(resource.id)}`;
    case 'member':
      return `${base}/v1/orgs/${e(organizationId)}/members/${e(resource.id)}`;
  }
}

/** The body of a delivery (the same bytes on every attempt and redelivery). */
export function webhookPayload(event: WebhookEvent, eventId: string, occurredAt: string, publicUrl: string): Record<string, unknown> {
  return {
    object: 'event',
    id: eventId,
    type: event.type,
    createdAt: occurredAt,
    organization: event.organizationId,
    resource: { object: event.resource.object, id: event.resource.id, urls: { location: resourceLocation(publicUrl, event.organizationId, event.resource) } },
    data: event.data,
  };
}
