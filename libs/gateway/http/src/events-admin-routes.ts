import type { EventsAdminClient } from '@bindery/platform/grpc';
import type { platformEventsAdminV1 as pb } from '@bindery/shared/contracts';
import { ID_PARAM, LIST_QUERY, listOf, object, pageOf, toList } from './schemas';
import type { RouteSpec } from './route-registry';

const STRING = { type: 'string' };
const INTEGER = { type: 'integer' };

const DEAD_LETTER = object(
  {
    object: { type: 'string', enum: ['dead-letter'] },
    id: STRING,
    service: STRING,
    consumer: { ...STRING, description: 'the consumer group whose handler gave up' },
    event: { type: 'object', description: 'the event envelope (id, type, source, time, subject, organization, data)' },
    topic: STRING,
    partition: INTEGER,
    offset: STRING,
    attempts: { ...INTEGER, description: 'handler runs that failed, over every delivery and replay' },
    error: { ...STRING, description: 'the last failure' },
    firstFailedAt: { type: 'string', format: 'date-time' },
    lastFailedAt: { type: 'string', format: 'date-time' },
  },
  ['object', 'id', 'service', 'consumer', 'event', 'topic', 'partition', 'offset', 'attempts', 'error', 'firstFailedAt', 'lastFailedAt'],
);

const deadLetterJson = (service: string, l: pb.DeadLetter) => ({
  object: 'dead-letter',
  id: l.id,
  service,
  consumer: l.consumer,
  event: JSON.parse(l.eventJson) as object,
  topic: l.topic,
  partition: l.partition,
  offset: l.offset,
  attempts: l.attempts,
  error: l.error,
  firstFailedAt: l.firstFailedAt,
  lastFailedAt: l.lastFailedAt,
});

/**
 * The events each service's consumers gave up on, and their replay (instance admins; each service
 * decides, through its EventsAdmin gRPC service). `service` is one of the services the gateway reaches.
 */
export function eventsAdminRoutes(clients: Record<string, EventsAdminClient>): RouteSpec[] {
  const service = { type: 'string', enum: Object.keys(clients).sort(), description: 'the service whose consumers failed' };
  return [
    {
      method: 'get',
      path: '/admin/services/:service/dead-letters',
      operationId: 'listDeadLetters',
      summary: "Events a service's consumers gave up on after their retries, oldest first (instance admins)",
      tags: ['admin'],
      params: { service },
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of dead letters', schema: listOf(DEAD_LETTER) },
      async handler({ caller, deadline, params, query }) {
        const r = await clients[params.service].listDeadLetters({ page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((l) => deadLetterJson(params.service, l)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/admin/services/:service/dead-letters/:deadLetterId/replay',
      operationId: 'replayDeadLetter',
      summary: "Runs a dead letter's event through its consumer again; the letter goes when it applies (instance admins)",
      tags: ['admin'],
      params: { service, deadLetterId: ID_PARAM },
      success: {
        status: 200,
        description:
          'Replayed; `applied` is false when the event had been applied already (only the letter went). A new failure answers 409 and the letter stays, with the new error',
        schema: object({ applied: { type: 'boolean' } }, ['applied']),
      },
      async handler({ caller, deadline, params }) {
        return { body: await clients[params.service].replayDeadLetter({ id: params.deadLetterId }, { caller, deadline }) };
      },
    },
  ];
}
