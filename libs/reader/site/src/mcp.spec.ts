import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { localPathOf } from './mcp';
import { pathToLog } from './routes';
import { serveSampleReader, ServedReader } from './testing/serve';

/** The sites' MCP endpoint through the SDK's own client, over HTTP, against the sample sites. */
let r: ServedReader;
beforeAll(async () => {
  r = await serveSampleReader({ reader: { mcpRateLimit: { burst: 1000, perMinute: 1000 } } });
});
afterAll(() => r.close());

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(path: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'reader-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${r.url}${path}`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content ?? []).map((c) => c.text).join('\n');

describe('a public site', () => {
  test('lists its tools; search answers titles, URLs and excerpts', async () => {
    const client = await connect('/acme-inc/acme/~gitbook/mcp');
    expect(client.getServerVersion()?.title).toBe('Acme Docs');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(['getPage', 'searchDocumentation']);
    expect(tools.tools.find((t) => t.name === 'getPage')?.annotations?.readOnlyHint).toBe(true);
    const found = textOf(await client.callTool({ name: 'searchDocumentation', arguments: { query: 'docker' } }));
    expect(found).toContain('## With Docker');
    expect(found).toContain(`URL: ${r.url}/acme-inc/acme/install/docker`);
    expect(found).toContain(`URL: ${r.url}/acme-inc/acme/install\n`);
    const none = await client.callTool({ name: 'searchDocumentation', arguments: { query: 'zzqqxx' } });
    expect(textOf(none)).toBe('No page of Acme Docs matches "zzqqxx".');
  });

  test('getPage answers what the .md URL answers, by path or URL, in any section or variant', async () => {
    const client = await connect('/acme-inc/acme/~gitbook/mcp');
    const md = async (path: string) => (await fetch(`${r.url}${path}`)).text();
    const docker = await md('/acme-inc/acme/install/docker.md');
    expect(docker).toContain('# With Docker');
    for (const args of [
      { path: 'install/docker' },
      { path: '/acme-inc/acme/install/docker.md' },
      { url: `${r.url}/acme-inc/acme/install/docker` },
      { url: `${r.url}/acme-inc/acme/install/docker.md` },
    ]) {
      const page = await client.callTool({ name: 'getPage', arguments: args });
      expect([args, page.isError]).toEqual([args, undefined]);
      expect(textOf(page)).toBe(docker);
    }
    expect(textOf(await client.callTool({ name: 'getPage', arguments: { path: 'api/authentication' } }))).toBe(await md('/acme-inc/acme/api/authentication.md'));
    expect(textOf(await client.callTool({ name: 'getPage', arguments: { path: 'v1/install' } }))).toContain('# Install (v1)');
    expect(textOf(await client.callTool({ name: 'getPage', arguments: { path: '' } }))).toContain('Welcome');
    for (const args of [
      { path: 'no-such-page' },
      { url: 'https://elsewhere.example/acme-inc/acme/install' },
      { url: `${r.url}/acme-inc/team/handbook` },
      { path: '~search.json' },
      {},
    ]) {
      const missing = await client.callTool({ name: 'getPage', arguments: args });
      expect([args, missing.isError]).toEqual([args, true]);
    }
  });

  test('every listed page is a resource, in the order of llms.txt, read as its Markdown', async () => {
    const client = await connect('/acme-inc/acme/~gitbook/mcp');
    const { resources } = await client.listResources();
    const llms = await (await fetch(`${r.url}/acme-inc/acme/llms.txt`)).text();
    expect(resources.map((x) => x.uri)).toEqual([...llms.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]));
    expect(resources.find((x) => x.uri.endsWith('/install.md'))).toMatchObject({ name: 'Install', description: 'Install Acme.', mimeType: 'text/markdown' });
    const read = await client.readResource({ uri: `${r.url}/acme-inc/acme/install.md` });
    expect(read.contents).toEqual([{ uri: `${r.url}/acme-inc/acme/install.md`, mimeType: 'text/markdown', text: await (await fetch(`${r.url}/acme-inc/acme/install.md`)).text() }]);
    await expect(client.readResource({ uri: `${r.url}/acme-inc/acme/no-such-page.md` })).rejects.toThrow(/not found/i);
  });

  test('stateless: GET and DELETE answer 405; a body that is not JSON 400; only at the site root', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${r.url}/acme-inc/acme/~gitbook/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
    }
    const bad = await fetch(`${r.url}/acme-inc/acme/~gitbook/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    const listed = await fetch(`${r.url}/acme-inc/acme/~gitbook/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect([listed.status, listed.headers.get('content-type'), listed.headers.get('cache-control'), listed.headers.get('mcp-session-id')]).toEqual([
      200,
      'application/json',
      'no-store',
      null,
    ]);
    expect(await listed.json()).toMatchObject({ jsonrpc: '2.0', id: 7, result: { tools: expect.any(Array) } });
    expect((await fetch(`${r.url}/acme-inc/acme/api/~gitbook/mcp`, { method: 'POST' })).status).toBe(404);
    // other pages still refuse POST
    expect((await fetch(`${r.url}/acme-inc/acme/install`, { method: 'POST' })).status).toBe(405);
  });
});

describe('private sites', () => {
  const status = async (path: string, headers: Record<string, string> = {}) =>
    (
      await fetch(`${r.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    ).status;

  test('answer 404 to a client without the key or token, as the HTML does', async () => {
    for (const path of ['/acme-inc/team/~gitbook/mcp', '/acme-inc/members/~gitbook/mcp', '/acme-inc/draft/~gitbook/mcp']) {
      await expect(connect(path)).rejects.toMatchObject({ code: 404, message: expect.stringContaining('Nothing is published at this address.') });
    }
    expect(await status('/acme-inc/team/~gitbook/mcp')).toBe(404);
    expect(await status('/acme-inc/team/~share/bshare-deactivated/~gitbook/mcp')).toBe(404);
    expect(await status('/acme-inc/members/~gitbook/mcp', { Authorization: 'Bearer jwt-unknown' })).toBe(404);
    expect(await status('/acme-inc/members/~gitbook/mcp', { Cookie: 'bindery_share=bshare-good-key' })).toBe(404);
    expect((await fetch(`${r.url}/acme-inc/team/handbook`)).status).toBe(404);
  });

  test('a share link’s form of the address, or its cookie, opens a share-link site', async () => {
    const viaPath = await connect('/acme-inc/team/~share/bshare-good-key/~gitbook/mcp');
    expect(textOf(await viaPath.callTool({ name: 'getPage', arguments: { path: 'handbook' } }))).toContain('# Team handbook');
    const viaCookie = await connect('/acme-inc/team/~gitbook/mcp', { Cookie: 'bindery_share=bshare-good-key' });
    expect((await viaCookie.listResources()).resources.map((x) => x.name)).toEqual(['Team handbook']);
  });

  test('a visitor token as a bearer token, a query or a cookie opens a visitor-auth site, with its conditions', async () => {
    const pro = await connect('/acme-inc/members/~gitbook/mcp', { Authorization: 'Bearer jwt-pro' });
    expect(textOf(await pro.callTool({ name: 'getPage', arguments: { path: 'pro/tips' } }))).toContain('# Pro tips');
    const basic = await connect('/acme-inc/members/~gitbook/mcp?jwt_token=jwt-basic');
    expect((await basic.callTool({ name: 'getPage', arguments: { path: 'pro/tips' } })).isError).toBe(true);
    expect((await basic.listResources()).resources.map((x) => x.name)).toEqual(['Members area']);
    expect(await status('/acme-inc/members/~gitbook/mcp', { Cookie: 'bindery_visitor=jwt-pro' })).toBe(200);
  });
});

describe('the rate limit', () => {
  test('a client past its burst gets 429 with Retry-After; pages are not counted', async () => {
    const limited = await serveSampleReader({ reader: { mcpRateLimit: { burst: 3, perMinute: 6 } } });
    try {
      const post = () =>
        fetch(`${limited.url}/acme-inc/acme/~gitbook/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post()).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await post();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10);
      // pages are not counted
      expect((await fetch(`${limited.url}/acme-inc/acme/install`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

test('localPathOf: URLs and paths of this site only', () => {
  const origin = 'https://r.example';
  expect(localPathOf('install/docker', origin, '/o/s')).toBe('/o/s/install/docker');
  expect(localPathOf('/o/s/install/docker.md', origin, '/o/s')).toBe('/o/s/install/docker');
  expect(localPathOf('https://r.example/o/s/install/?x=1#part', origin, '/o/s')).toBe('/o/s/install');
  expect(localPathOf('https://r.example/o/s/', origin, '/o/s')).toBe('/o/s');
  expect(localPathOf('https://r.example/o/other/install', origin, '/o/s')).toBeUndefined();
  expect(localPathOf('https://evil.example/o/s/install', origin, '/o/s')).toBeUndefined();
  expect(localPathOf('~files/x/y', origin, '/o/s')).toBeUndefined();
  expect(localPathOf('install', origin, '')).toBe('/install');
});

test('a failed request is logged without its share key or query', () => {
  expect(pathToLog('/acme-inc/team/~share/bshare-good-key/~gitbook/mcp?jwt_token=jwt-pro')).toBe('/acme-inc/team/~share/…/~gitbook/mcp');
});
