import type { Run } from '@bindery/shared/contracts';
import { RunJson, runJson, RunRecord, RunStatus } from './run-model';

/** A run as the gRPC message every service answers (`bindery.common.v1.Run`). */
export function runMessage(record: RunRecord): Run {
  const j = runJson(record);
  return {
    id: j.id,
    kind: j.kind,
    organizationId: j.organizationId,
    status: j.status,
    inputJson: JSON.stringify(j.input),
    resultJson: j.result && JSON.stringify(j.result),
    progress: j.progress,
    reason: j.reason,
    attempt: j.attempt,
    maxAttempts: j.maxAttempts,
    cancelRequested: j.cancelRequested === true,
    createdBy: j.createdBy,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
    startedAt: j.startedAt,
    completedAt: j.completedAt,
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
