import { assertMatchesSpec } from '@bindery/shared/testing';
import { Client, HttpResult } from './http-client';

/** Helpers for the tests of change requests' comments and replies. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** The official paths of the comment operations (for assertMatchesSpec). */
export const SPEC = {
  comments: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
  comment: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}',
  replies: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies',
  reply: '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}',
} as const;

/** Every comment operation is in @gitbook/api 0.130.0, the release the API reference matches. */
export const SPEC_VERSION = '0.130.0';

export const crPath = (spaceId: string, cr: string | number) => `/v1/spaces/${spaceId}/change-requests/${cr}`;
export const commentsPath = (spaceId: string, cr: string | number) => `${crPath(spaceId, cr)}/comments`;
export const commentPath = (spaceId: string, cr: string | number, commentId: string) => `${commentsPath(spaceId, cr)}/${commentId}`;
export const repliesPath = (spaceId: string, cr: string | number, commentId: string) => `${commentPath(spaceId, cr, commentId)}/replies`;
export const replyPath = (spaceId: string, cr: string | number, commentId: string, replyId: string) => `${repliesPath(spaceId, cr, commentId)}/${replyId}`;

export function expectStatus(what: string, res: HttpResult, status: number): HttpResult {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Asserts the status and that the body is the official response of the operation; answers the body. */
export function official(res: HttpResult, method: string, specPath: string, status = 200): Json {
  expectStatus(`${method.toUpperCase()} ${specPath}`, res, status);
  if (status === 204 || status === 205) {
    if (res.body !== undefined) throw new Error(`${method.toUpperCase()} ${specPath} (${status}) has a body: ${JSON.stringify(res.body)}`);
    return {};
  }
  assertMatchesSpec(SPEC_VERSION, method, specPath, status, res.body);
  return res.body;
}

/** Opens a change request on the space (editors); answers it. */
export async function openChangeRequest(client: Client, spaceId: string, subject = 'Proposal'): Promise<Json> {
  return expectStatus('create change request', await client.post(`/v1/spaces/${spaceId}/change-requests`, { subject }), 201).body;
}

/** Applies content changes to the change request's head; answers the changes' outcomes. */
export async function changeContent(client: Client, spaceId: string, crId: string, changes: Json[]): Promise<Json[]> {
  return expectStatus('change content', await client.post(`${crPath(spaceId, crId)}/content?compat=false`, { changes }), 200).body.changes;
}

/** Inserts top-level pages with these titles into the change request; answers their ids. */
export async function insertPages(client: Client, spaceId: string, crId: string, titles: string[]): Promise<string[]> {
  const changes = await changeContent(
    client,
    spaceId,
    crId,
    titles.map((title) => ({ operation: 'insert_page', title, document: { markdown: `About ${title.toLowerCase()}.` } })),
  );
  return changes.map((c) => (typeof c.page === 'string' ? c.page : c.page.id));
}

/** Posts a comment (200); answers it. */
export async function postComment(client: Client, spaceId: string, crId: string, body: Json = { body: { markdown: 'A remark.' } }): Promise<Json> {
  return official(await client.post(commentsPath(spaceId, crId), body), 'post', SPEC.comments);
}

/** Posts a reply (200); answers it. */
export async function postReply(client: Client, spaceId: string, crId: string, commentId: string, markdown = 'An answer.'): Promise<Json> {
  return official(await client.post(repliesPath(spaceId, crId, commentId), { body: { markdown } }), 'post', SPEC.replies);
}
