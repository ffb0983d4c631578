// Helpers of the change-request review tests: paths, shape checks, calls, and a space with a member of every role.
import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { CR, openChangeRequest } from './change-request-fixtures';
import { createSpace } from './content-fixtures';
import { Json } from './content-model-fixtures';
import { organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { Client, http } from './http-client';

export const REVIEWS_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews';
export const REVIEW_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}';
export const REQUESTED_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers';

export const reviewsOf = (spaceId: string, crId: string) => `${CR(spaceId, crId)}/reviews`;
export const requestedOf = (spaceId: string, crId: string) => `${CR(spaceId, crId)}/requested-reviewers`;

/** A submitted review, checked against both releases (0.202.0 adds `outdated` and `urls`). */
export function assertReviewShape(method: 'get' | 'post', status: number, body: unknown): void {
  if (method === 'post') assertMatchesSpec('0.130.0', 'post', REVIEWS_PATH, status, body);
  assertMatchesSpec('0.202.0', method, method === 'post' ? REVIEWS_PATH : REVIEW_PATH, status, body);
}

export function assertReviewList(body: unknown): void {
  assertMatchesSpec('0.130.0', 'get', REVIEWS_PATH, 200, body);
  assertMatchesSpec('0.202.0', 'get', REVIEWS_PATH, 200, body);
}

export function assertRequestedList(body: unknown): void {
  assertMatchesSpec('0.130.0', 'get', REQUESTED_PATH, 200, body);
  assertMatchesSpec('0.202.0', 'get', REQUESTED_PATH, 200, body);
}

export async function submit(client: Client, spaceId: string, crId: string, body: Json): Promise<Json> {
  const res = await client.post(reviewsOf(spaceId, crId), body);
  if (res.status !== 201) throw new Error(`submit review: ${res.status} ${JSON.stringify(res.body)}`);
  assertReviewShape('post', 201, res.body);
  return res.body;
}

export async function request(client: Client, spaceId: string, crId: string, users: string[], subject?: string): Promise<Json[]> {
  const res = await client.post(requestedOf(spaceId, crId), { users, ...(subject !== undefined ? { subject } : {}) });
  if (res.status !== 200) throw new Error(`request reviewers: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec('0.130.0', 'post', REQUESTED_PATH, 200, res.body);
  assertMatchesSpec('0.202.0', 'post', REQUESTED_PATH, 200, res.body);
  return res.body.users;
}

export async function requested(client: Client, spaceId: string, crId: string): Promise<Json[]> {
  const res = await client.get(`${requestedOf(spaceId, crId)}?limit=1000`);
  if (res.status !== 200) throw new Error(`requested reviewers: ${res.status} ${JSON.stringify(res.body)}`);
  assertRequestedList(res.body);
  expect(res.body.count).toBe(res.body.items.length);
  return res.body.items;
}

export async function reviews(client: Client, spaceId: string, crId: string, query = ''): Promise<Json[]> {
  const res = await client.get(`${reviewsOf(spaceId, crId)}?limit=1000${query}`);
  if (res.status !== 200) throw new Error(`reviews: ${res.status} ${JSON.stringify(res.body)}`);
  assertReviewList(res.body);
  expect(res.body.count).toBe(res.body.items.length);
  return res.body.items;
}

/** Writes a page into the change request (edit role), expecting 200 and the change request. */
export async function writePage(client: Client, spaceId: string, crId: string, title: string): Promise<Json> {
  const res = await client.post(`${CR(spaceId, crId)}/content`, { changes: [{ operation: 'insert_page', title, document: { markdown: `${title}.` } }] });
  if (res.status !== 200) throw new Error(`write page: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec('0.202.0', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200, res.body);
  return res.body;
}

export interface ReviewedSpace {
  sut: SystemUnderTest;
  orgId: string;
  members: Record<RoleName, TestUser>;
  stranger: TestUser;
  as: Record<RoleName | 'stranger', Client>;
  spaceId: string;
  /** A change request opened by the edit member, with one page written in it. */
  changeRequest(subject?: string): Promise<Json>;
}

/** An organization with a member of every role (and a stranger) and a space they all know. */
export async function reviewedSpace(title: string): Promise<ReviewedSpace> {
  const sut = await sharedSystem();
  const { orgId, members, stranger } = await organizationWithEveryRole(sut);
  const as = {
    ...(Object.fromEntries(Object.entries(members).map(([role, u]) => [role, http(sut.baseUrl, u.token)])) as Record<RoleName, Client>),
    stranger: http(sut.baseUrl, stranger.token),
  };
  const spaceId = (await createSpace(as.admin, orgId, { title })).id;
  const changeRequest = async (subject = 'Reviewed change') => {
    const cr = await openChangeRequest(as.edit, spaceId, subject);
    return writePage(as.edit, spaceId, cr.id, subject);
  };
  return { sut, orgId, members, stranger, as, spaceId, changeRequest };
}
