import { Client } from './http-client';
import { ContentWriter } from './content-writer';
import { createSpace } from './content-fixtures';

/** Helpers for the tests of a space's content (revisions, pages, files, links). */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** A 1×1 transparent PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The page ids of a write's created (or updated) pages, in the order of its changes. */
export const pageIdsOf = (write: { changes: Json[] }): string[] => write.changes.map((c) => (typeof c.page === 'string' ? c.page : c.page.id));

/** An empty space of the organization, made by `client` (create role); answers its id. */
export async function emptySpace(client: Client, orgId: string, title = 'Content'): Promise<string> {
  return (await createSpace(client, orgId, { title })).id;
}

/** Every page of a tree (RevisionPage[] with nested `pages`), depth first. */
export function flatPages(pages: Json[]): Json[] {
  return pages.flatMap((p) => [p, ...flatPages(p.pages ?? [])]);
}

/**
 * A space with a small tree, written by `userId` in one batch:
 *   Intro · Guide › Install › On Linux · Links (→ Intro by id, → a URL)
 */
export async function seededSpace(client: Client, writer: ContentWriter, userId: string, orgId: string) {
  const spaceId = await emptySpace(client, orgId, 'Seeded');
  const first = await writer.apply(userId, spaceId, [
    { operation: 'insert_page', title: 'Intro', ref: 'intro', document: { markdown: 'Welcome to the docs.' } },
    { operation: 'insert_page', title: 'Guide', ref: 'guide', document: {} },
    { operation: 'insert_page', title: 'Links', document: { markdown: 'See [the intro](./intro.md) and [the web](https://example.com/docs).' } },
  ]);
  const [intro, guide, links] = pageIdsOf(first);
  const second = await writer.apply(userId, spaceId, [{ operation: 'insert_page', title: 'Install', into: guide, document: { markdown: 'Install it.' } }]);
  const [install] = pageIdsOf(second);
  const third = await writer.apply(userId, spaceId, [{ operation: 'insert_page', title: 'On Linux', into: install, document: { markdown: 'Use the package.' } }]);
  const [linux] = pageIdsOf(third);
  return { spaceId, revisionId: third.revisionId, pages: { intro, guide, links, install, linux } };
}
