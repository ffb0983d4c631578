const queues = new Map<string, Promise<unknown>>();

/**
 * Runs the writes of one comment (its fields, its replies and their counts) one after the other in
 * this process. Correctness does not rest on it — each write is a transaction that conflicts with a
 * concurrent one and runs again — but transactions that all write the same comment abort each
 * other, and queued here they do not: 40 replies at once to one comment all succeed instead of half
 * of them running out of attempts.
 */
export function oneAtATime<T>(commentId: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(commentId) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(commentId, settled);
  void settled.then(() => {
    if (queues.get(commentId) === settled) queues.delete(commentId);
  });
  return run;
}
