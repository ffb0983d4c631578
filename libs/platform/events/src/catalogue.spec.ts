import { defineEvent, eventHandlers, on } from './catalogue';
import { newEvent, parseEnvelope, topicOf } from './envelope';

interface Renamed {
  spaceId: string;
  title: string;
}
// A codec shaped like ts-proto's: a default filled in on the way in.
const codec = {
  toJSON: (m: Renamed) => ({ spaceId: m.spaceId, title: m.title }),
  fromJSON: (o: unknown) => ({ spaceId: String((o as Renamed).spaceId), title: (o as Renamed).title ?? '' }),
};
const renamed = defineEvent<Renamed>('content.space.renamed', codec);

describe('event catalogue', () => {
  test('an event type must read <service>.<noun>.<verb>', () => {
    expect(() => defineEvent('content.renamed', codec)).toThrow(/<service>.<noun>.<verb>/);
    expect(() => defineEvent('Content.space.renamed', codec)).toThrow();
    expect(defineEvent('change_requests.review.submitted', codec).type).toBe('change_requests.review.submitted');
  });

  test('an envelope created through a definition decodes to its payload, and only as its own type', () => {
    const e = renamed.create('content', 'sp1', { spaceId: 'sp1', title: 'Guide' }, 'org1');
    expect(e).toMatchObject({ specversion: '1.0', type: 'content.space.renamed', source: 'content', subject: 'sp1', organization: 'org1' });
    expect(renamed.decode(e)).toEqual({ spaceId: 'sp1', title: 'Guide' });
    expect(() => renamed.decode({ ...e, type: 'content.space.deleted' })).toThrow(/expected a content.space.renamed event/);
  });

  test('handlers receive the payload, the envelope and the context; the opt-out reason travels with the handler', async () => {
    const seen: unknown[] = [];
    const session = { id: 'tx' };
    const handlers = eventHandlers(
      on(renamed, async (d, e, ctx) => seen.push([d.title, e.subject, ctx.session])),
      on(defineEvent('content.space.deleted', codec), async () => undefined, { idempotentOutsideTransaction: 'calls another service' }),
    );
    await handlers['content.space.renamed'](renamed.create('content', 'sp1', { spaceId: 'sp1', title: 'T' }), { session });
    await handlers['content.space.renamed'](renamed.create('content', 'sp2', { spaceId: 'sp2', title: 'U' }));
    expect(seen).toEqual([
      ['T', 'sp1', session],
      ['U', 'sp2', undefined],
    ]);
    expect(handlers['content.space.renamed'].idempotentOutsideTransaction).toBeUndefined();
    expect(handlers['content.space.deleted'].idempotentOutsideTransaction).toBe('calls another service');
  });

  test('a type handled twice in one group is refused', () => {
    expect(() =>
      eventHandlers(
        on(renamed, async () => undefined),
        on(renamed, async () => undefined),
      ),
    ).toThrow(/two handlers for content.space.renamed/);
  });
});

describe('envelope', () => {
  test('parses what newEvent made and refuses what is not an envelope', () => {
    const e = newEvent('identity', 'identity.user.created', 'u1', { userId: 'u1' });
    expect(parseEnvelope(Buffer.from(JSON.stringify(e)))).toEqual(e);
    expect(parseEnvelope(JSON.stringify(e))).toEqual(e);
    expect(parseEnvelope(null)).toBeUndefined();
    expect(parseEnvelope('not json')).toBeUndefined();
    expect(parseEnvelope(JSON.stringify({ id: 'x', type: 't' }))).toBeUndefined();
    expect(parseEnvelope(JSON.stringify({ ...e, id: 7 }))).toBeUndefined();
    expect(parseEnvelope('null')).toBeUndefined();
  });

  test('ids sort by creation time, and a topic is named after its producer', () => {
    const a = newEvent('s', 'a.b.c', 'x', {});
    const b = newEvent('s', 'a.b.c', 'x', {});
    expect(a.id < b.id || a.time <= b.time).toBe(true);
    expect(a.id).not.toBe(b.id);
    expect(topicOf('change-requests')).toBe('bindery.change-requests.v1');
  });
});
