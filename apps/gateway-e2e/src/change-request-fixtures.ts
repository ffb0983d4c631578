import { assertMatchesSpec } from '@bindery/shared/testing';
import { Json } from './content-model-fixtures';
import { Client } from './http-client';

/** Helpers for the tests of change requests. */

export const CR = (spaceId: string, cr?: string | number) => `/v1/spaces/${spaceId}/change-requests${cr === undefined ? '' : `/${cr}`}`;

/** Opens a change request as `client`, expecting 201 and the official shape. */
export async function openChangeRequest(client: Client, spaceId: string, subject = 'A change'): Promise<Json> {
  const res = await client.post(CR(spaceId), { subject });
  if (res.status !== 201) throw new Error(`create change request: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec('0.130.0', 'post', '/spaces/{spaceId}/change-requests', 201, res.body);
  return res.body;
}

/** Applies changes to a change request's content, expecting 200; answers the compat=false result. */
export async function editChangeRequest(client: Client, spaceId: string, crId: string, changes: unknown[]): Promise<Json> {
  const res = await client.post(`${CR(spaceId, crId)}/content?compat=false`, { changes });
  if (res.status !== 200) throw new Error(`edit change request: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec('0.202.0', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200, res.body);
  return res.body;
}

/** Merges, expecting 200 and the official shape; answers {revision, result}. */
export async function mergeChangeRequest(client: Client, spaceId: string, crId: string): Promise<{ revision: string; result: string }> {
  const res = await client.post(`${CR(spaceId, crId)}/merge`, undefined);
  if (res.status !== 200) throw new Error(`merge: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec('0.130.0', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge', 200, res.body);
  return res.body as { revision: string; result: string };
}

/** The Markdown of a page of the space's current revision. */
export async function pageMarkdown(client: Client, spaceId: string, pageId: string): Promise<string> {
  const res = await client.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`);
  if (res.status !== 200) throw new Error(`page: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.markdown as string;
}
