import { createKafka, newEvent, topicOf } from '@bindery/platform/events';
import { connectMongo, PROCESSED_EVENTS } from '@bindery/platform/mongo';
import { eventually, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

/**
 * Makes content dead-letter one identity event, then applies an event with the same id: a team
 * membership with an empty team id cannot be written (an empty field name) however often it is
 * tried, and the well-formed one behind it (same key, same partition) records the id as applied.
 * Answers the dead letter as the gateway lists it; its replay finds the event applied already.
 */
export async function deadLetterInContent(sut: SystemUnderTest): Promise<{ id: string; event: { id: string } }> {
  const poison = newEvent('tests', 'identity.team_member.added', 'poison', { organizationId: 'poison-org', teamId: '', userId: 'poison-user', role: 'member' });
  const healed = { ...poison, data: { ...poison.data, teamId: 'poison-team' } };
  const producer = createKafka(sut.env.KAFKA_BROKERS.split(','), 'e2e-poison').producer();
  await producer.connect();
  try {
    await producer.send({
      topic: `${sut.env.KAFKA_NAMESPACE}${topicOf('identity')}`,
      acks: -1,
      messages: [poison, healed].map((e) => ({ key: e.subject, value: JSON.stringify(e) })),
    });
  } finally {
    await producer.disconnect();
  }
  const admin = http(sut.baseUrl, sut.adminToken);
  const letter = await eventually(async () => {
    const list = await admin.get('/admin/services/content/dead-letters?limit=1000');
    const found = (list.body.items as Array<{ id: string; event: { id: string } }>).find((l) => l.event.id === poison.id);
    if (!found) throw new Error(`no dead letter for ${poison.id} yet`);
    return found;
  }, 30000);
  // The well-formed event comes after the letter: only once content has recorded it as applied does a
  // replay find it applied (on a busy machine a replay can come first and fail again).
  const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
  try {
    // one marker per consumer group: `<consumer>:<event id>`
    const marker = { _id: { $regex: `:${poison.id.replace(/[^A-Za-z0-9_-]/g, '\\$&')}$` } };
    await eventually(async () => {
      if (!(await mongo.db.collection<{ _id: string }>(PROCESSED_EVENTS).findOne(marker as object))) throw new Error(`${poison.id} not applied by content yet`);
    }, 30000);
  } finally {
    await mongo.close();
  }
  return letter;
}
