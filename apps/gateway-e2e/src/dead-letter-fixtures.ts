import { createKafka, newEvent, topicOf } from '@bindery/platform/events';
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
  return eventually(async () => {
    const list = await admin.get('/admin/services/content/dead-letters?limit=1000');
    const letter = (list.body.items as Array<{ id: string; event: { id: string } }>).find((l) => l.event.id === poison.id);
    if (!letter) throw new Error(`no dead letter for ${poison.id} yet`);
    return letter;
  }, 30000);
}
