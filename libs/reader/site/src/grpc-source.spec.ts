import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb, documentToMessage } from '@bindery/shared/contracts';
import { GrpcSource, GrpcSourceOptions } from './grpc-source';
import { createReader } from './reader';
import { CachedSource } from './cached-source';

/**
 * The gRPC source against stand-ins of the sites and content clients that answer in the shapes of
 * the protos (proto/bindery/sites/v1, proto/bindery/content/v1), recording how they were called.
 */
const R = 'http://reader.test';
const siteSpace = (id: string, spaceId: string, url: string, extra: Record<string, unknown> = {}) => ({
  id,
  path: '',
  spaceId,
  space: undefined,
  title: id,
  default: false,
  publishedUrl: url,
  ...extra,
});

function fakes() {
  const calls: Array<{ method: string; req: unknown; caller?: Caller }> = [];
  const record = (method: string) => (req: unknown, options?: { caller?: Caller }) => {
    calls.push({ method, req, caller: options?.caller });
  };
  const resolutions: Record<string, { siteSpaceId: string; spaceId: string; revisionId: string; pathname: string; basePath: string }> = {
    [`${R}/docs/install`]: { siteSpaceId: 'ss-main', spaceId: 'sp-main', revisionId: 'rev-1', pathname: 'install', basePath: '/docs' },
    [`${R}/docs/~share/bshare-k/install`]: { siteSpaceId: 'ss-main', spaceId: 'sp-main', revisionId: 'rev-1', pathname: 'install', basePath: '/docs/~share/bshare-k' },
    [`${R}/docs`]: { siteSpaceId: 'ss-main', spaceId: 'sp-main', revisionId: 'rev-1', pathname: '', basePath: '/docs' },
    [`${R}/docs/`]: { siteSpaceId: 'ss-main', spaceId: 'sp-main', revisionId: 'rev-1', pathname: '', basePath: '/docs' },
    [`${R}/docs/pro/`]: { siteSpaceId: 'ss-pro', spaceId: 'sp-pro', revisionId: 'rev-9', pathname: '', basePath: '/docs/pro' },
  };
  /** The published site; its gated site space opens only to the visitor token holding the claim. */
  const publishedSite = (pro: boolean) => ({
    site: { id: 'site', organizationId: 'org', title: 'Docs', visibility: 'public', updatedAt: '2026-01-01T00:00:00.000Z', publishedUrl: `${R}/docs` },
    structure: {
      type: 'siteSpaces',
      items: [
        { siteSpace: siteSpace('ss-main', 'sp-main', `${R}/docs`, { default: true, space: { revision: 'rev-1' } }) },
        ...(pro ? [{ siteSpace: siteSpace('ss-pro', 'sp-pro', `${R}/docs/pro`, { condition: 'visitor.claims.pro', space: { revision: 'rev-9' } }) }] : []),
      ],
    },
  });
  const options: GrpcSourceOptions = {
    readerCaller: { userId: 'service:reader', isInstanceAdmin: true },
    sites: {
      published: {
        openPublishedUrl: async (req: { url: string; visitor?: { token?: string }; shareKey?: string }, o?: { caller?: Caller }) => {
          record('openPublishedUrl')(req, o);
          const found = resolutions[req.url];
          const pro = req.visitor?.token === 'jwt-pro';
          if (!found || (found.siteSpaceId === 'ss-pro' && !pro)) throw new DomainError('not_found', 'Site not found.');
          return {
            content: {
              organizationId: 'org',
              siteId: 'site',
              siteSpaceId: found.siteSpaceId,
              spaceId: found.spaceId,
              revisionId: found.revisionId,
              pathname: found.pathname,
              basePath: found.basePath,
              siteBasePath: found.basePath.replace(/\/pro$/, ''),
              canonicalUrl: '',
              complete: true,
              apiToken: `bsite_token_for_${found.spaceId}`,
            },
            scope: { organizationId: 'org', siteId: 'site', spaceIds: pro ? ['sp-main', 'sp-pro'] : ['sp-main'], tokenId: 'tok1' },
            site: publishedSite(pro),
          };
        },
        searchSite: async (req: unknown, o?: { caller?: Caller }) => {
          record('searchSite')(req, o);
          return {
            spaces: [
              {
                id: 'sp-main',
                title: 'Main',
                pages: [
                  { id: 'p1', title: 'Install', path: 'install', spaceId: 'sp-main', sections: [{ id: 'p1', title: 'Install', path: 'install', body: 'npm install', anchor: '' }] },
                ],
              },
            ],
            page: undefined,
          };
        },
      },
    } as unknown as GrpcSourceOptions['sites'],
    content: {
      revisions: {
        listPages: async (req: unknown, o?: { caller?: Caller }) => {
          record('listPages')(req, o);
          return {
            pages: [
              pb.RevisionPage.fromPartial({ id: 'p0', title: 'Home', path: 'home', document: {} }),
              pb.RevisionPage.fromPartial({ id: 'p1', title: 'Install', path: 'install', document: {} }),
            ],
            revisionId: 'rev-1',
          };
        },
        getPage: async (req: { pageId: string }, o?: { caller?: Caller }) => {
          record('getPage')(req, o);
          if (req.pageId !== 'p1') throw new DomainError('not_found', 'Page not found.');
          return {
            page: pb.RevisionPage.fromPartial({
              id: 'p1',
              document: {
                document: documentToMessage({
                  object: 'document',
                  data: {},
                  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Run npm install.', marks: [] }] }] }],
                }),
              },
            }),
            revisionId: 'rev-1',
            path: 'install',
          };
        },
        getReusableContent: async (req: { reusableContentId: string }, o?: { caller?: Caller }) => {
          record('getReusableContent')(req, o);
          if (req.reusableContentId !== 'rc1') throw new DomainError('not_found', 'Reusable content not found.');
          const text = { object: 'text', leaves: [{ object: 'leaf', text: 'Shared warning.', marks: [] }] };
          return {
            reusableContent: { id: 'rc1', title: 'Warning', document: 'd1' },
            document: documentToMessage({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text] }] }),
            revisionId: 'rev-1',
          };
        },
        listFiles: async (req: unknown, o?: { caller?: Caller }) => {
          record('listFiles')(req, o);
          return { files: [{ id: 'f1', name: 'a.txt', contentType: 'text/plain', size: 5, downloadURL: 'downloads/tok.en/a.txt' }], page: { count: 1 } };
        },
      },
    } as unknown as GrpcSourceOptions['content'],
    downloads: {
      downloadFile: (req: unknown) => {
        record('downloadFile')(req);
        const chunks = [{ head: { name: 'a.txt', contentType: 'text/plain', size: 5 } }, { data: Buffer.from('hello') }];
        return Object.assign(
          (async function* () {
            yield* chunks;
          })(),
          { cancel: () => undefined },
        );
      },
    } as unknown as GrpcSourceOptions['downloads'],
  };
  return { options, calls };
}

/** GET with a Host header (fetch may not set one). */
const getAs = (port: number, host: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });

describe('GrpcSource', () => {
  test('resolve: the resolver’s answer in the reader’s terms; the share key beside the URL, out of the paths; nothing published is undefined', async () => {
    const { options, calls } = fakes();
    const source = new GrpcSource(options);
    const content = await source.resolve(`${R}/docs/install`, { shareKey: 'bshare-k' });
    expect(content).toMatchObject({
      siteId: 'site',
      siteSpaceId: 'ss-main',
      revisionId: 'rev-1',
      pathname: 'install',
      basePath: '/docs',
      siteBasePath: '/docs',
      audience: 'share',
    });
    expect(content!.access).toEqual({ spaceId: 'sp-main', revisionId: 'rev-1', credential: 'bsite_token_for_sp-main' });
    expect(await source.resolve(`${R}/nothing`, {})).toBeUndefined();
    expect(calls[0]).toEqual({
      method: 'openPublishedUrl',
      req: { url: `${R}/docs/install`, visitor: undefined, shareKey: 'bshare-k' },
      caller: options.readerCaller,
    });
  });

  test('content is read as the site token’s caller, its scope the resolution’s: the token never goes back to sites', async () => {
    const { options, calls } = fakes();
    const source = new GrpcSource(options);
    const content = (await source.resolve(`${R}/docs/install`, {}))!;
    expect((await source.pages(content.access)).map((p) => p.id)).toEqual(['p0', 'p1']);
    expect((await source.document(content.access, 'p1'))?.nodes).toHaveLength(1);
    expect(await source.document(content.access, 'gone')).toBeUndefined();
    expect(calls.filter((c) => !['listPages', 'getPage'].includes(c.method)).map((c) => c.method)).toEqual(['openPublishedUrl']);
    const read = calls.find((c) => c.method === 'listPages')!;
    expect(read.req).toEqual({ spaceId: 'sp-main', revisionId: 'rev-1', metadata: false });
    expect(read.caller).toEqual({ userId: 'site:tok1', isInstanceAdmin: false, site: { organizationId: 'org', siteId: 'site', spaceIds: ['sp-main'], tokenId: 'tok1' } });
    // an access no resolution of this source opened is not read
    await expect(source.pages({ spaceId: 'sp-main', revisionId: 'rev-1', credential: 'bsite_token_for_sp-main' })).rejects.toThrow(/not/);
    expect(calls.find((c) => c.method === 'getPage')!.req).toEqual({
      revision: { spaceId: 'sp-main', revisionId: 'rev-1', metadata: false },
      pageId: 'p1',
      path: '',
      format: 'document',
      evaluated: true,
    });
  });

  test('a reusable content’s document is read from the page’s revision as the site token’s caller; an unknown one is undefined', async () => {
    const { options, calls } = fakes();
    const source = new GrpcSource(options);
    const content = (await source.resolve(`${R}/docs/install`, {}))!;
    expect((await source.reusableContent(content.access, 'rc1'))?.nodes).toHaveLength(1);
    expect(await source.reusableContent(content.access, 'gone')).toBeUndefined();
    const read = calls.find((c) => c.method === 'getReusableContent')!;
    expect(read.req).toEqual({ revision: { spaceId: 'sp-main', revisionId: 'rev-1', metadata: false }, reusableContentId: 'rc1' });
    expect(read.caller).toMatchObject({ userId: 'site:tok1' });
  });

  test('the published structure: the site as the resolution answered it for the visitor; its other site spaces read with the same token', async () => {
    const { options, calls } = fakes();
    const source = new GrpcSource(options);
    const content = (await source.resolve(`${R}/docs/install`, {}))!;
    const anonymous = await source.site(content);
    expect(anonymous).toMatchObject({ title: 'Docs', visibility: 'public', version: '2026-01-01T00:00:00.000Z', basePath: '/docs' });
    expect(anonymous.siteSpaces.map((s) => [s.id, s.basePath])).toEqual([['ss-main', '/docs']]);
    const asPro = (await source.resolve(`${R}/docs/install`, { visitorToken: 'jwt-pro' }))!;
    const pro = await source.site(asPro);
    expect(pro.siteSpaces.map((s) => [s.id, s.basePath])).toEqual([
      ['ss-main', '/docs'],
      ['ss-pro', '/docs/pro'],
    ]);
    const proSpace = (await source.siteSpaceContent(asPro, pro.siteSpaces[1]))!;
    expect(proSpace).toEqual({ spaceId: 'sp-pro', revisionId: 'rev-9', credential: 'bsite_token_for_sp-main' });
    expect(await source.siteSpaceContent(content, pro.siteSpaces[1])).toBeUndefined();
    await source.pages(proSpace);
    expect(calls.find((c) => c.method === 'listPages')).toMatchObject({ req: { spaceId: 'sp-pro', revisionId: 'rev-9' }, caller: { site: { spaceIds: ['sp-main', 'sp-pro'] } } });
    // two resolutions, nothing else asked of sites
    expect(calls.filter((c) => c.method !== 'listPages').map((c) => c.method)).toEqual(['openPublishedUrl', 'openPublishedUrl']);
  });

  test('files stream from content’s downloads with the token of their downloadURL', async () => {
    const { options, calls } = fakes();
    const source = new GrpcSource(options);
    const content = (await source.resolve(`${R}/docs/install`, {}))!;
    const body = (await source.openFile(content.access, 'f1'))!;
    expect([body.name, body.contentType, body.size]).toEqual(['a.txt', 'text/plain', 5]);
    const chunks: Uint8Array[] = [];
    for await (const c of body.chunks) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    expect(calls.find((c) => c.method === 'downloadFile')!.req).toEqual({ token: 'tok.en' });
    expect(await source.openFile(content.access, 'f-none')).toBeUndefined();
  });

  test('the reader serves a page and search through it', async () => {
    const { options, calls } = fakes();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    // The reader's public URL is the one the stand-in resolver knows; requests reach it by Host.
    const reader = createReader({ source: new CachedSource(new GrpcSource(options)), publicUrl: R });
    server.on('request', reader.handle);
    try {
      const res = await getAs(port, 'reader.test', '/docs/install');
      const html = res.body;
      expect(res.status).toBe(200);
      expect(html).toContain('<h1>Install</h1>');
      expect(html).toContain('<p>Run npm install.</p>');
      const hits = JSON.parse((await getAs(port, 'reader.test', '/docs/~search.json?q=npm')).body);
      expect(hits).toEqual({ query: 'npm', results: [{ title: 'Install', url: `${R}/docs/install`, snippet: 'npm install', where: 'ss-main' }] });
      expect(calls.some((c) => c.method === 'searchSite')).toBe(true);
    } finally {
      server.close();
    }
  });

  test('sites is asked once per page view (4 times before OpenPublishedUrl with one conditional site space), twice per search', async () => {
    /** What a reader with cold caches asks sites to answer the path. */
    const sitesCallsFor = async (path: string) => {
      const { options, calls } = fakes();
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      server.on('request', createReader({ source: new CachedSource(new GrpcSource(options)), publicUrl: R }).handle);
      try {
        expect((await getAs(port(server), 'reader.test', path)).status).toBe(200);
        return calls.filter((c) => ['openPublishedUrl', 'searchSite'].includes(c.method)).map((c) => c.method);
      } finally {
        server.close();
      }
    };
    const port = (server: ReturnType<typeof createServer>) => (server.address() as AddressInfo).port;
    expect(await sitesCallsFor('/docs/install')).toEqual(['openPublishedUrl']);
    expect(await sitesCallsFor('/docs/~search.json?q=npm')).toEqual(['openPublishedUrl', 'searchSite']);
    // the listings read every site space the visitor may read, still without asking sites again
    expect(await sitesCallsFor('/docs/llms.txt')).toEqual(['openPublishedUrl']);
  });
});
