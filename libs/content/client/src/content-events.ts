import { defineEvent } from '@bindery/platform/events';
import { contentEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event content publishes (topic bindery.content.v1), each type paired with its payload
 * message from proto/bindery/events/content/v1 once: producers create and consumers decode through
 * these definitions.
 */
export const ContentEvents = {
  spaceCreated: defineEvent('content.space.created', ev.SpaceChanged),
  spaceUpdated: defineEvent('content.space.updated', ev.SpaceChanged),
  spaceDeleted: defineEvent('content.space.deleted', ev.SpaceChanged),
  spaceRestored: defineEvent('content.space.restored', ev.SpaceChanged),
  spaceMoved: defineEvent('content.space.moved', ev.SpaceChanged),
  spaceTransferred: defineEvent('content.space.transferred', ev.SpaceTransferred),
  spacePurged: defineEvent('content.space.purged', ev.SpacePurged),
  collectionCreated: defineEvent('content.collection.created', ev.CollectionChanged),
  collectionUpdated: defineEvent('content.collection.updated', ev.CollectionChanged),
  collectionDeleted: defineEvent('content.collection.deleted', ev.CollectionChanged),
  collectionMoved: defineEvent('content.collection.moved', ev.CollectionChanged),
  collectionTransferred: defineEvent('content.collection.transferred', ev.CollectionTransferred),
  collectionRestored: defineEvent('content.collection.restored', ev.CollectionChanged),
  collectionPurged: defineEvent('content.collection.purged', ev.CollectionPurged),
  grantSet: defineEvent('content.grant.set', ev.GrantChanged),
  grantRemoved: defineEvent('content.grant.removed', ev.GrantChanged),
  revisionCreated: defineEvent('content.revision.created', ev.RevisionCreated),
};
