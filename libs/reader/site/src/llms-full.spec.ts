import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Document, PageNode } from '@bindery/reader/render';
import { CachedSource } from './cached-source';
import { FixtureSite, FixtureSource, FixtureSpace } from './fixture-source';
import { createReader } from './reader';

/**
 * llms-full.txt's bound holds whatever the closing note carries: pages whose titles are long and
 * not ASCII, nested under paths of several hundred characters, so that the note alone is longer
 * than the room a fixed reserve keeps.
 */
const slug = (n: number) => `${'chapitre-numéro-'.repeat(12)}${n}`;
const title = (n: number) => `${'Περιγραφή του συστήματος 🛰 '.repeat(8)}${n}`;
const paragraph = (n: number): Document =>
  ({
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `Page ${n}. ${'Lorem ipsum dolor sit amet. '.repeat(12)}`, marks: [] }] }],
      },
    ],
  }) as Document;

/** Twelve pages, each the child of the one before: page n's path has n long segments. */
function deepSpace(): FixtureSpace {
  const pages: PageNode[] = [];
  let parent: PageNode | undefined;
  let path = '';
  for (let n = 1; n <= 12; n++) {
    path = path ? `${path}/${slug(n)}` : slug(n);
    const page: PageNode = { id: `p-${n}`, type: 'document', title: title(n), slug: slug(n), path, pages: [] };
    if (parent) parent.pages!.push(page);
    else pages.push(page);
    parent = page;
  }
  return { id: 'space-deep', revisionId: 'rev-deep-1', pages, documents: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p-${i + 1}`, paragraph(i + 1)])) };
}

const site: FixtureSite = {
  id: 'site-deep',
  organizationId: 'org-acme',
  organization: 'acme-inc',
  title: 'Deep',
  basename: 'deep',
  visibility: 'public',
  published: true,
  siteSpaces: [{ id: 'ss-deep', title: 'Deep', path: '', spaceId: 'space-deep', default: true }],
};

let server: Server;
let url: string;
let maxBytes = 5 * 1024 * 1024;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = new CachedSource(new FixtureSource([site], [deepSpace()]), { resolveTtlMs: 60_000 });
  // a reader per bound would cost a server each: the bound is read per request from `maxBytes`
  server.on('request', (req, res) => createReader({ source, publicUrl: url, llmsFullMaxBytes: maxBytes, renderCacheSize: 0 }).handle(req, res));
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

test('with pages past the bound, the whole file — closing note and last line break included — stays within it', async () => {
  const whole = await fetch(`${url}/acme-inc/deep/llms-full.txt`).then((r) => r.text());
  expect([...whole.matchAll(/^url: /gm)]).toHaveLength(12);
  const seen = new Set<number>();
  for (maxBytes = 1024; maxBytes < Buffer.byteLength(whole); maxBytes += 257) {
    const res = await fetch(`${url}/acme-inc/deep/llms-full.txt`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect({ maxBytes, over: Math.max(0, Buffer.byteLength(body) - maxBytes) }).toEqual({ maxBytes, over: 0 });
    const pages = [...body.matchAll(/^url: /gm)].length;
    seen.add(pages);
    // the note names what was left out and where the whole list is
    expect(body).toMatch(new RegExp(`Left out: ${12 - pages} of 12 pages[^\\n]*\\n$`));
    expect(body).toContain(`${url}/acme-inc/deep/llms.txt`);
    expect(body.endsWith('\n')).toBe(true);
    // and never a broken character
    expect(body).not.toContain('\uFFFD');
  }
  // the bounds tried kept from none to most of the pages
  expect(Math.min(...seen)).toBe(0);
  expect(Math.max(...seen)).toBeGreaterThanOrEqual(10);
});
