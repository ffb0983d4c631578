import { defineEvent } from '@bindery/platform/events';
import { changeRequestsEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event change-requests publishes (topic bindery.change-requests.v1), each type paired with its
 * payload message from proto/bindery/events/change_requests/v1 once.
 */
export const ChangeRequestEvents = {
  created: defineEvent('change_requests.change_request.created', ev.ChangeRequestChanged),
  updated: defineEvent('change_requests.change_request.updated', ev.ChangeRequestChanged),
  merged: defineEvent('change_requests.change_request.merged', ev.ChangeRequestChanged),
  archived: defineEvent('change_requests.change_request.archived', ev.ChangeRequestChanged),
  commentCreated: defineEvent('change_requests.comment.created', ev.CommentChanged),
  commentUpdated: defineEvent('change_requests.comment.updated', ev.CommentChanged),
  commentDeleted: defineEvent('change_requests.comment.deleted', ev.CommentChanged),
  replyCreated: defineEvent('change_requests.reply.created', ev.CommentChanged),
  replyUpdated: defineEvent('change_requests.reply.updated', ev.CommentChanged),
  replyDeleted: defineEvent('change_requests.reply.deleted', ev.CommentChanged),
  reviewSubmitted: defineEvent('change_requests.review.submitted', ev.ReviewSubmitted),
  reviewerRequested: defineEvent('change_requests.reviewer.requested', ev.ReviewerChanged),
  reviewerRemoved: defineEvent('change_requests.reviewer.removed', ev.ReviewerChanged),
};
