import { randomBytes } from 'node:crypto';
import { Db, MongoClient } from 'mongodb';
import { idempotencyMark } from '@bindery/shared/ids';
import { ensureIndexes, newMongoClient } from './mongo';
import { IDEMPOTENCY_KEY_BUSY, IDEMPOTENCY_KEY_INDEXES, IDEMPOTENCY_KEYS, IdempotencyKeys } from './idempotency-keys';
import { dropIndexesNamed } from './retired-indexes';

/** Whether `check` comes to hold within `withinMs` (polled). */
async function eventually(check: () => Promise<boolean>, withinMs = 5000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The promise's outcome, or 'still waiting' when it has not settled within `ms`. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}

const asIs = { toJSON: (r: { id: string }) => r, fromJSON: (j: unknown) => j as { id: string } };

// Against the real local replica set.
describe('idempotency keys', () => {
  const dbName = `idem_${randomBytes(4).toString('hex')}`;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    client = await newMongoClient(process.env.BINDERY_TEST_MONGODB_URL!).connect();
    db = client.db(dbName);
    await ensureIndexes(db, IDEMPOTENCY_KEY_INDEXES);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('answers the first answer to a repeated request and refuses (422) the key with another request or operation', async () => {
    const keys = new IdempotencyKeys(db);
    let runs = 0;
    const create = async () => ({ id: `r${++runs}` });
    const mark = idempotencyMark('u1', 'k-same', { title: 'A' });
    expect(await keys.once('create', mark, asIs, create)).toEqual({ id: 'r1' });
    expect(await keys.once('create', idempotencyMark('u1', 'k-same', { title: 'A' }), asIs, create)).toEqual({ id: 'r1' });
    expect(runs).toBe(1);
    await expect(keys.once('create', idempotencyMark('u1', 'k-same', { title: 'B' }), asIs, create)).rejects.toMatchObject({ kind: 'unprocessable' });
    await expect(keys.once('other', mark, asIs, create)).rejects.toMatchObject({ kind: 'unprocessable' });
    // another caller's key of the same name is another key
    expect(await keys.once('create', idempotencyMark('u2', 'k-same', { title: 'A' }), asIs, create)).toEqual({ id: 'r2' });
  });

  it('runs simultaneous first uses once; the others answer its answer', async () => {
    const keys = new IdempotencyKeys(db);
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const create = async () => {
      runs += 1;
      await held;
      return { id: `c${runs}` };
    };
    const attempts = Array.from({ length: 8 }, () => keys.once('create', idempotencyMark('u1', 'k-race', { n: 1 }), asIs, create));
    // every attempt has reached the key (one running, seven waiting) before the one running finishes
    while (!(await db.collection(IDEMPOTENCY_KEYS).findOne({ key: 'k-race' }))) await new Promise((r) => setImmediate(r));
    release();
    const answers = await Promise.all(attempts);
    expect(runs).toBe(1);
    expect(new Set(answers.map((a) => a.id))).toEqual(new Set(['c1']));
  });

  it('keeps nothing of a failed attempt: the key may be used again', async () => {
    const keys = new IdempotencyKeys(db);
    const mark = idempotencyMark('u1', 'k-fail', {});
    await expect(keys.once('create', mark, asIs, async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await keys.once('create', mark, asIs, async () => ({ id: 'after' }))).toEqual({ id: 'after' });
  });

  it('treats a key past its expiry as absent before the TTL monitor deletes it', async () => {
    let now = Date.now();
    const keys = new IdempotencyKeys(db, { clock: () => now, ttlMs: 1000 });
    const mark = idempotencyMark('u1', 'k-old', { a: 1 });
    expect(await keys.once('create', mark, asIs, async () => ({ id: 'first' }))).toEqual({ id: 'first' });
    now += 1001;
    expect(await keys.once('create', mark, asIs, async () => ({ id: 'second' }))).toEqual({ id: 'second' });
    // and another request with it is no longer refused once the new use has expired too
    now += 1001;
    expect(await keys.once('create', idempotencyMark('u1', 'k-old', { a: 2 }), asIs, async () => ({ id: 'third' }))).toEqual({ id: 'third' });
    const record = await db.collection(IDEMPOTENCY_KEYS).findOne({ key: 'k-old' });
    expect(record?.expiresAt.getTime()).toBe(now + 1000);
  });

  it('takes over a key whose running attempt is gone (its claim ran out)', async () => {
    let now = Date.now();
    const keys = new IdempotencyKeys(db, { clock: () => now, claimMs: 1000 });
    // a process that died mid-operation renews its claim no more (here: not within the test)
    const dying = new IdempotencyKeys(db, { clock: () => now, claimMs: 1000, renewEveryMs: 3_600_000 });
    const mark = idempotencyMark('u1', 'k-dead', {});
    const dead = dying.once('create', mark, asIs, () => new Promise<{ id: string }>(() => undefined));
    while (!(await db.collection(IDEMPOTENCY_KEYS).findOne({ key: 'k-dead' }))) await new Promise((r) => setImmediate(r));
    now += 1001;
    expect(await keys.once('create', mark, asIs, async () => ({ id: 'taken over' }))).toEqual({ id: 'taken over' });
    void dead;
  });

  it('renews the claim of a running attempt: an operation longer than the claim is not run a second time', async () => {
    let now = Date.now();
    const keys = new IdempotencyKeys(db, { clock: () => now, claimMs: 1000, renewEveryMs: 5 });
    const mark = idempotencyMark('u1', 'k-long', {});
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const first = keys.once('create', mark, asIs, async () => {
      runs += 1;
      await held;
      return { id: 'long' };
    });
    const claimedUntil = async () => (await db.collection(IDEMPOTENCY_KEYS).findOne({ key: 'k-long' }))?.claimedUntil.getTime();
    expect(await eventually(async () => (await claimedUntil()) !== undefined)).toBe(true);
    // three times 0.9 of the claim: the first claim ran out long ago, each renewal holds it a claim from then
    for (let step = 0; step < 3; step++) {
      now += 900;
      expect(await eventually(async () => (await claimedUntil()) === now + 1000, 2000)).toBe(true);
    }
    // a repeated use now finds it running (and, its budget spent, says so); without renewals it took it over
    const impatient = new IdempotencyKeys(db, { clock: () => now, claimMs: 1000, timeLeft: () => 0 });
    await expect(impatient.once('create', mark, asIs, async () => ({ id: 'again' }))).rejects.toMatchObject({ kind: 'conflict', message: IDEMPOTENCY_KEY_BUSY });
    release();
    expect(await first).toEqual({ id: 'long' });
    expect(runs).toBe(1);
    expect(await keys.once('create', mark, asIs, async () => ({ id: 'again' }))).toEqual({ id: 'long' });
  });

  it('stops waiting for a running first use at its own deadline (409) and leaves the first use running', async () => {
    let now = Date.now();
    const keys = new IdempotencyKeys(db, { clock: () => now });
    const mark = idempotencyMark('u1', 'k-wait', {});
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = keys.once('create', mark, asIs, async () => {
      await held;
      return { id: 'first' };
    });
    expect(await eventually(async () => (await db.collection(IDEMPOTENCY_KEYS).findOne({ key: 'k-wait' })) !== null)).toBe(true);
    // the repeated use has a second left; the first use's claim holds for a minute
    const waiting = new IdempotencyKeys(db, { clock: () => now, timeLeft: () => 1000 });
    const outcome = waiting
      .once('create', mark, asIs, async () => ({ id: 'second' }))
      .then(
        (answer) => ({ answer }),
        (err: unknown) => ({ err }),
      );
    now += 1000;
    expect(await settledWithin(outcome, 5000)).toMatchObject({ err: { kind: 'conflict', message: IDEMPOTENCY_KEY_BUSY } });
    release();
    expect(await first).toEqual({ id: 'first' });
    expect(await waiting.once('create', mark, asIs, async () => ({ id: 'second' }))).toEqual({ id: 'first' });
  });

  it('is declared with a TTL index on expiresAt, and drops named indexes of earlier versions', async () => {
    const indexes = await db.collection(IDEMPOTENCY_KEYS).indexes();
    expect(indexes.find((i) => i.name === 'expires')).toMatchObject({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
    const things = db.collection('things');
    await things.createIndex({ 'idempotency.key': 1 }, { name: 'idempotency_key', unique: true });
    expect(await dropIndexesNamed(db, { things: ['idempotency_key'], absent: ['idempotency_key'] })).toEqual(['things.idempotency_key']);
    expect((await things.indexes()).map((i) => i.name)).toEqual(['_id_']);
    expect(await dropIndexesNamed(db, { things: ['idempotency_key'] })).toEqual([]);
  });
});
