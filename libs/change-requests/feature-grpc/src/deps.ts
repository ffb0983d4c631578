import type { ContentClients } from '@bindery/content/client';
import { Db, IdempotencyKeys, Transaction, transactionsRelayingEvents } from '@bindery/platform/mongo';
import { budgetLeft } from '@bindery/platform/grpc';
import type { RunStore } from '@bindery/platform/runs';
import { ChangeRequestsRepository, CommentsRepository, RepliesRepository, ReviewsRepository } from '@bindery/change-requests/data-access';

/** What change-requests' use cases work with; built once at start. */
export interface ChangeRequestsDeps {
  changeRequests: ChangeRequestsRepository;
  comments: CommentsRepository;
  replies: RepliesRepository;
  reviews: ReviewsRepository;
  /** content's services, called as the caller: the space, its roles and revisions */
  content: ContentClients;
  clock: () => number;
  /** the callers' Idempotency-Keys of creates and merges (a retry answers the first answer) */
  idempotencyKeys: IdempotencyKeys;
  /** one multi-document transaction, retried on transient conflicts; wakes the relay after the commit */
  transaction: Transaction;
  /** durable runs (the announcement of states at the first start) */
  runs?: RunStore;
}

export function changeRequestsDeps(db: Db, eventsRecorded: () => void, content: ContentClients, clock: () => number = Date.now): ChangeRequestsDeps {
  return {
    changeRequests: new ChangeRequestsRepository(db, eventsRecorded),
    comments: new CommentsRepository(db, eventsRecorded),
    replies: new RepliesRepository(db, eventsRecorded),
    reviews: new ReviewsRepository(db, eventsRecorded),
    content,
    clock,
    idempotencyKeys: new IdempotencyKeys(db, { clock, timeLeft: budgetLeft }),
    transaction: transactionsRelayingEvents(db, eventsRecorded),
  };
}

export const SOURCE = 'bindery/change-requests';

export const nowOf = (deps: ChangeRequestsDeps) => new Date(deps.clock()).toISOString();
