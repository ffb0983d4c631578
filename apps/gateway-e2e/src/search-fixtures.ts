import { eventually } from '@bindery/shared/testing';
import { Client } from './http-client';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** GET a search as `client`, expecting 200; answers the body. */
export async function search(client: Client, path: string, query: string, extra = ''): Promise<Json> {
  const res = await client.get(`${path}?query=${encodeURIComponent(query)}${extra}`);
  if (res.status !== 200) throw new Error(`GET ${path} ${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The page titles of a space search, in order. */
export const titlesOf = (body: Json): string[] => body.items.map((p: Json) => p.title);

/** Waits until the space search for `query` answers a first page titled `title` (the index follows content's events). */
export async function untilFirst(client: Client, spaceId: string, query: string, title: string, timeoutMs = 30000): Promise<Json> {
  return eventually(async () => {
    const body = await search(client, `/v1/spaces/${spaceId}/search`, query);
    if (body.items[0]?.title !== title) throw new Error(`first result for ${query}: ${JSON.stringify(titlesOf(body))}, expected ${title}`);
    return body;
  }, timeoutMs);
}
