import type { Run } from '@bindery/shared/contracts';
import { RunJson, RunRecord, RunStatus } from './run-model';

/** A run as the gRPC message every service answers (`bindery.common.v1.Run`); its JSON is `runJsonOf` of it. */
export function runMessage(r: RunRecord): Run {
  return {
    id: r._id,
    kind: r.kind,
    organizationId: r.organizationId || undefined,
    status: r.status,
    inputJson: JSON.stringify(r.input),
    resultJson: r.result && JSON.stringify(r.result),
    progress: r.progress,
    reason: r.reason || undefined,
    attempt: r.attempt,
    maxAttempts: r.maxAttempts,
    // a cancel asked of a run that then finished is no longer news
    cancelRequested: r.cancelRequested === true && r.status === 'in-progress',
    createdBy: r.createdBy || undefined,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    startedAt: r.startedAt?.toISOString(),
    completedAt: r.completedAt?.toISOString(),
  };
}

/** The JSON shape of a run from its gRPC message (what the gateway answers). */
export function runJsonOf(m: Run): RunJson {
  const out: RunJson = {
    object: 'run',
    id: m.id,
    kind: m.kind,
    status: m.status as RunStatus,
    input: JSON.parse(m.inputJson || '{}'),
    attempt: m.attempt,
    maxAttempts: m.maxAttempts,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
  if (m.organizationId) out.organizationId = m.organizationId;
  if (m.resultJson) out.result = JSON.parse(m.resultJson);
  if (m.progress) {
    const { done, total, message } = m.progress;
    out.progress = { ...(done !== undefined ? { done } : {}), ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) };
  }
  if (m.reason) out.reason = m.reason;
  if (m.cancelRequested) out.cancelRequested = true;
  if (m.createdBy) out.createdBy = m.createdBy;
  if (m.startedAt) out.startedAt = m.startedAt;
  if (m.completedAt) out.completedAt = m.completedAt;
  return out;
}
