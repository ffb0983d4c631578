import { runJsonOf, runMessage } from './run-message';
import type { RunRecord } from './run-model';

const at = new Date('2026-01-01T00:00:00.000Z');
const record: RunRecord = {
  _id: 'run1',
  kind: 'demo.run',
  organizationId: 'org1',
  status: 'in-progress',
  input: { spaceId: 's1' },
  progress: { done: 1, total: 3 },
  attempt: 1,
  maxAttempts: 5,
  dueAt: at,
  leaseOwner: 'worker',
  leaseUntil: at,
  cancelRequested: true,
  idempotencyKey: 'k',
  createdBy: 'u1',
  createdAt: at,
  updatedAt: at,
  startedAt: at,
};

describe('a run as the APIs show it (record → gRPC message → JSON)', () => {
  it('shows the shown fields with ISO dates and nothing of the lease or the keys', () => {
    expect(runJsonOf(runMessage(record))).toEqual({
      object: 'run',
      id: 'run1',
      kind: 'demo.run',
      organizationId: 'org1',
      status: 'in-progress',
      input: { spaceId: 's1' },
      progress: { done: 1, total: 3 },
      attempt: 1,
      maxAttempts: 5,
      cancelRequested: true,
      createdBy: 'u1',
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      startedAt: at.toISOString(),
    });
  });

  it('drops a cancel request once the run finished, and shows its result and reason', () => {
    const done = runJsonOf(runMessage({ ...record, status: 'failed', reason: 'gone', result: { n: 1 }, completedAt: at }));
    expect(done).toMatchObject({ status: 'failed', reason: 'gone', result: { n: 1 }, completedAt: at.toISOString() });
    expect(done.cancelRequested).toBeUndefined();
  });
});
