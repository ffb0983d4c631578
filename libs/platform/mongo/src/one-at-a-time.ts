const queues = new Map<string, Promise<unknown>>();

/**
 * Runs the writes sharing a key (a comment and its replies, a space's search index) one after the
 * other in this process. Correctness does not rest on it — each write is a transaction that
 * conflicts with a concurrent one and runs again — but transactions that all write the same
 * documents abort each other, and queued here they do not: 40 replies at once to one comment all
 * succeed instead of half of them running out of attempts. Keys are shared by the whole process:
 * give them a prefix of their kind.
 */
export function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}
