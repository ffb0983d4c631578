import { DomainError, invalid } from '@bindery/platform/errors';
import { hasLengthWithin, TEXT_LIMITS } from '@bindery/shared/text';
import type { ChangeRequestRecord, ChangeRequestStatus } from './records';

/** A merged change request is read-only; an archived one must be reopened before its content changes. */
export function assertContentWritable(cr: Pick<ChangeRequestRecord, 'status'>): void {
  if (cr.status === 'merged') throw new DomainError('conflict', 'The change request is merged: it is read-only.');
  if (cr.status === 'archived') throw new DomainError('conflict', 'The change request is archived: reopen it (status open) before changing it.');
}

/** Subject, description and status change on any change request that is not merged. */
export function assertEditable(cr: Pick<ChangeRequestRecord, 'status'>): void {
  if (cr.status === 'merged') throw new DomainError('conflict', 'The change request is merged: it is read-only.');
}

export function checkSubject(subject: string): string {
  const s = subject.trim();
  const { min, max } = TEXT_LIMITS.changeRequestSubject;
  if (!hasLengthWithin(s, min, max)) throw invalid(`subject must be at most ${max} characters.`);
  return s;
}

const SETTABLE: ChangeRequestStatus[] = ['draft', 'open', 'archived'];

export function checkStatus(status: string): ChangeRequestStatus {
  if (!SETTABLE.includes(status as ChangeRequestStatus)) throw invalid('status must be one of draft, open, archived.');
  return status as ChangeRequestStatus;
}

/** The event a status change stands for. */
export function statusEventOf(before: ChangeRequestStatus, after: ChangeRequestStatus): 'archived' | 'updated' {
  return after === 'archived' && before !== 'archived' ? 'archived' : 'updated';
}
