import { randomBytes } from 'node:crypto';
import { Client } from './http-client';

/** Helpers for the content endpoints (spaces, collections, their permissions). */

export type ContentKind = 'space' | 'collection';
export type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
/** A default level: a role, `inherit` (from the parent, up to the organization role) or null (restricted). */
export type Level = Role | 'inherit' | null;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The REST path of a space or a collection. */
export const contentPath = (kind: ContentKind, id: string) => (kind === 'space' ? `/v1/spaces/${id}` : `/v1/collections/${id}`);

/** An id in the format of content's ids (20 URL-safe characters) that names nothing. */
export const unknownId = () => randomBytes(15).toString('base64url');

function expectStatus(what: string, res: { status: number; body: unknown }, status: number): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/** POST /v1/orgs/{orgId}/spaces; answers the space. */
export async function createSpace(client: Client, orgId: string, body: { title?: string; parent?: string; emoji?: string; editMode?: string } = {}): Promise<Json> {
  const res = await client.post(`/v1/orgs/${orgId}/spaces`, { title: 'Test space', ...body });
  expectStatus('create space', res, 201);
  return res.body;
}

/** POST /v1/orgs/{orgId}/collections; answers the collection. */
export async function createCollection(client: Client, orgId: string, body: { title?: string; parent?: string } = {}): Promise<Json> {
  const res = await client.post(`/v1/orgs/${orgId}/collections`, { title: 'Test collection', ...body });
  expectStatus('create collection', res, 201);
  return res.body;
}

/** PATCH the default level of a space or a collection (needs admin on it). */
export async function setDefaultLevel(client: Client, kind: ContentKind, id: string, defaultLevel: Level): Promise<void> {
  expectStatus(`defaultLevel of ${kind} ${id}`, await client.patch(contentPath(kind, id), { defaultLevel }), 200);
}

export interface Grant {
  role: Role;
  users?: string[];
  teams?: string[];
}

/** POST …/permissions: gives `role` to the users and teams (needs admin on the item). */
export async function grant(client: Client, kind: ContentKind, id: string, g: Grant): Promise<void> {
  expectStatus(`grant ${g.role} on ${kind} ${id}`, await client.post(`${contentPath(kind, id)}/permissions`, g), 204);
}

/** DELETE a space or a collection (205). */
export async function deleteContent(client: Client, kind: ContentKind, id: string): Promise<void> {
  expectStatus(`delete ${kind} ${id}`, await client.delete(contentPath(kind, id)), 205);
}

export interface ItemOptions {
  title?: string;
  /** the parent collection (default: the organization's top level) */
  parent?: string;
  /** set after creation when given (new items inherit) */
  defaultLevel?: Level;
  grants?: Grant[];
}

/**
 * A space or a collection made by `client` (who needs the create role where it goes and keeps admin
 * on it), with its default level and grants; answers its id.
 */
export async function contentItem(client: Client, orgId: string, kind: ContentKind, options: ItemOptions = {}): Promise<string> {
  const body = { ...(options.title ? { title: options.title } : {}), ...(options.parent ? { parent: options.parent } : {}) };
  const item = kind === 'space' ? await createSpace(client, orgId, body) : await createCollection(client, orgId, body);
  if (options.defaultLevel !== undefined) await setDefaultLevel(client, kind, item.id, options.defaultLevel);
  for (const g of options.grants ?? []) await grant(client, kind, item.id, g);
  return item.id;
}
