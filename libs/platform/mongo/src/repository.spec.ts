import { randomBytes } from 'node:crypto';
import { Db, MongoClient } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { newMongoClient } from './mongo';
import { Repository } from './repository';

interface Note {
  _id: string;
  group: string;
  at: number;
  text: string;
  deletedAt?: string;
}

const event = (type: string): EventEnvelope =>
  ({ id: randomBytes(8).toString('hex'), type, source: 'test', time: new Date().toISOString(), subject: 's', data: {} }) as unknown as EventEnvelope;

/** A repository written the way a service writes one: only its own queries, the rules inherited. */
class NotesRepository extends Repository<Note> {
  constructor(db: Db, recorded: () => void) {
    super(db, 'notes', recorded, { softDeleteField: 'deletedAt' });
  }
  add(note: Note, events: EventEnvelope[] = []) {
    return this.insertRecord(note, events);
  }
  get(id: string, includeDeleted = false) {
    return this.findOne({ _id: id }, { includeDeleted });
  }
  edit(id: string, text: string, events: EventEnvelope[]) {
    return this.updateRecord({ _id: id }, { $set: { text } }, events);
  }
  remove(id: string, events: EventEnvelope[]) {
    return this.softDeleteRecord({ _id: id }, new Date().toISOString(), events);
  }
  purge(id: string) {
    return this.hardDelete({ _id: id });
  }
  page(group: string, after: { k?: number; id: string } | undefined, limit: number) {
    return this.keysetPage({ group }, { key: 'at', after, limit });
  }
  raw(id: string) {
    return this.collection.findOne({ _id: id } as never);
  }
}

describe('Repository base (real replica set)', () => {
  const dbName = `repo_${randomBytes(4).toString('hex')}`;
  let client: MongoClient;
  let notes: NotesRepository;
  let wakes = 0;

  beforeAll(async () => {
    client = await newMongoClient(process.env.BINDERY_TEST_MONGODB_URL!).connect();
    notes = new NotesRepository(client.db(dbName), () => wakes++);
  });
  afterAll(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  test('events are stored with the change, wake the relay, and never come back from reads', async () => {
    const before = wakes;
    await notes.add({ _id: 'n1', group: 'g', at: 1, text: 'a' }, [event('note.created')]);
    expect(wakes).toBe(before + 1);
    expect(await notes.raw('n1')).toMatchObject({ outboxCount: 1 });
    const read = await notes.get('n1');
    expect(read).toEqual({ _id: 'n1', group: 'g', at: 1, text: 'a' });
    const edited = await notes.edit('n1', 'b', [event('note.updated')]);
    expect(edited).toEqual({ _id: 'n1', group: 'g', at: 1, text: 'b' });
    expect(wakes).toBe(before + 2);
    expect(await notes.raw('n1')).toMatchObject({ outboxCount: 2 });
    // A write without events does not wake the relay.
    await notes.add({ _id: 'n0', group: 'h', at: 1, text: 'quiet' });
    expect(wakes).toBe(before + 2);
  });

  test('soft-deleted documents leave reads and updates, unless asked for', async () => {
    await notes.add({ _id: 'n2', group: 'g', at: 2, text: 'x' });
    expect(await notes.remove('n2', [event('note.deleted')])).toBe(true);
    expect(await notes.remove('n2', [event('note.deleted')])).toBe(false);
    expect(await notes.get('n2')).toBeNull();
    expect(await notes.edit('n2', 'y', [])).toBeNull();
    expect(await notes.get('n2', true)).toMatchObject({ _id: 'n2', text: 'x' });
  });

  test('a document with unsent events is not hard-deleted; once relayed it is', async () => {
    await notes.add({ _id: 'n3', group: 'z', at: 3, text: 'pending' }, [event('note.created')]);
    expect(await notes.purge('n3')).toBe(0);
    expect(await notes.raw('n3')).not.toBeNull();
    // What the relay does once Kafka has the event.
    await client
      .db(dbName)
      .collection('notes')
      .updateOne({ _id: 'n3' as never }, { $set: { outbox: {}, outboxCount: 0 } });
    expect(await notes.purge('n3')).toBe(1);
    expect(await notes.raw('n3')).toBeNull();
  });

  test('keyset pages visit every live item once, in (key, id) order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const id = `k${String(i).padStart(2, '0')}`;
      await notes.add({ _id: id, group: 'pages', at: i % 3, text: id });
      ids.push(id);
    }
    await notes.remove('k04', []);
    const seen: string[] = [];
    let after: { k?: number; id: string } | undefined;
    for (;;) {
      const rows = await notes.page('pages', after, 4);
      const items = rows.slice(0, 4);
      seen.push(...items.map((n) => n._id));
      if (rows.length <= 4) break;
      const last = items[items.length - 1];
      after = { k: last.at, id: last._id };
    }
    const expected = ids.filter((id) => id !== 'k04').sort((a, b) => (Number(a.slice(1)) % 3) - (Number(b.slice(1)) % 3) || a.localeCompare(b));
    expect(seen).toEqual(expected);
  });
});
