// What a team does in a day, through the API, so that every webhook event type happens at least once:
// spaces, change requests, a site, members, and a Git import from the loopback git server.
import { randomBytes } from 'node:crypto';
import type { SystemUnderTest } from '@bindery/shared/testing';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export type Api = (method: string, path: string, body?: unknown, expected?: number[]) => Promise<Json>;

export function api(baseUrl: string, token: string): Api {
  return async (method, path, body, expected = [200, 201, 204, 205]) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** A user and an API token for them, through the instance administration routes. */
export async function newUser(sut: SystemUnderTest, name: string): Promise<{ id: string; email: string; token: string }> {
  const admin = api(sut.baseUrl, sut.adminToken);
  const email = `${name}-${randomBytes(4).toString('hex')}@example.com`;
  const user = await admin('POST', '/admin/users', { email, displayName: name }, [201]);
  const token = await admin('POST', `/admin/users/${user.id}/tokens`, { label: 'bench' }, [201]);
  return { id: user.id, email, token: token.token };
}

/**
 * Space created, updated, deleted, restored; its content updated by a merge; change requests created,
 * updated, merged, archived; a site created, updated, published, unpublished, deleted; a member added,
 * their role changed, removed; a Git import (git_sync.completed). Answers the space.
 */
export async function aDayOfWork(sut: SystemUnderTest, a: Api, orgId: string, gitUrl: string): Promise<string> {
  const space = await a('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook' }, [201]);
  await a('PATCH', `/v1/spaces/${space.id}`, { title: 'The handbook' });
  const cr = await a('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'First page' }, [201]);
  await a('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } }],
  });
  await a('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { subject: 'The first page' });
  await a('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const dropped = await a('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Never mind' }, [201]);
  await a('PATCH', `/v1/spaces/${space.id}/change-requests/${dropped.id}`, { status: 'archived' });
  const site = await a('POST', `/v1/orgs/${orgId}/sites`, { title: 'Docs', visibility: 'public', spaces: [space.id] }, [201]);
  await a('POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`);
  await a('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { title: 'Our handbook' });
  await a('POST', `/v1/orgs/${orgId}/sites/${site.id}/unpublish`);
  await a('DELETE', `/v1/orgs/${orgId}/sites/${site.id}`);
  const newcomer = await newUser(sut, 'newcomer');
  await a('POST', `/v1/orgs/${orgId}/invites`, { emails: [{ email: newcomer.email, role: 'read' }] });
  await a('PATCH', `/v1/orgs/${orgId}/members/${newcomer.id}`, { role: 'edit' });
  await a('DELETE', `/v1/orgs/${orgId}/members/${newcomer.id}`);
  await a('POST', `/v1/spaces/${space.id}/git/import`, { url: gitUrl, ref: 'refs/heads/main' });
  const spare = await a('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Spare' }, [201]);
  await a('DELETE', `/v1/spaces/${spare.id}`);
  await a('POST', `/v1/spaces/${spare.id}/restore`);
  return space.id;
}
