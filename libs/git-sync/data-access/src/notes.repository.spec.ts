import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { ensureIndexes, newMongoClient } from '@bindery/platform/mongo';
import { noteOfNewUser } from '@bindery/git-sync/domain';
import { GIT_SYNC_INDEXES } from './indexes';
import { NotesRepository } from './notes.repository';

describe('notes repository (real replica set)', () => {
  const dbName = `git_sync_notes_${randomBytes(4).toString('hex')}`;
  let client: MongoClient;
  let notes: NotesRepository;
  let wakes = 0;

  beforeAll(async () => {
    client = await newMongoClient(process.env.BINDERY_TEST_MONGODB_URL!).connect();
    await ensureIndexes(client.db(dbName), GIT_SYNC_INDEXES);
    notes = new NotesRepository(client.db(dbName), () => wakes++);
  });
  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });

  test('a note is stored and read back by id and by subject', async () => {
    const note = noteOfNewUser('u1', 'a@example.com', '2026-01-01T00:00:00.000Z');
    await notes.insert(note, []);
    expect(await notes.get(note._id)).toEqual(note);
    expect(await notes.ofSubject('u1')).toEqual([note]);
    expect(await notes.countOf('u1')).toBe(1);
    expect(await notes.countOf('u2')).toBe(0);
    // Without events the outbox relay is not woken.
    expect(wakes).toBe(0);
  });
});
