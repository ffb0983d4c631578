import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { createPublishedSite, createShareLink, CreatedSite, shareUrl, visitorToken } from './site-fixtures';

/**
 * Published sites for AI agents on the real system: the SDK's own MCP client against
 * `<site>/~gitbook/mcp` of sites published through the API (public, share-link, visitor-auth), and
 * `llms-full.txt` and `Accept: text/markdown` through the reader reading sites and content.
 */
const BURST = 40;

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content ?? []).map((c) => c.text).join('\n');

/** Polls until `done` holds for `read()` (search indexes after the merge's events). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - t0 > timeoutMs) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('published sites for agents (real system)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let spaceId: string;
  let pub: CreatedSite;
  const clients: McpClient[] = [];

  async function connect(url: string, headers: Record<string, string> = {}): Promise<McpClient> {
    const client = new McpClient({ name: 'agent-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    sut = await startSystem({ READER_MCP_BURST: String(BURST), READER_MCP_PER_MINUTE: '6' });
    const readerUrl = sut.env.BINDERY_READER_URL;
    await until(
      async () => (await fetch(`${readerUrl}/readyz`)).status,
      (s) => s === 200,
    );
    const owner = await createUser(sut, 'agents-owner');
    admin = http(sut.baseUrl, owner.token);
    orgId = await createOrganization(sut, owner, 'Agents');
    spaceId = (await createSpace(admin, orgId, { title: 'Field guide' })).id;
    const cr = await openChangeRequest(admin, spaceId, 'Pages');
    await editChangeRequest(admin, spaceId, cr.id, [
      { operation: 'insert_page', title: 'Overview', document: { markdown: 'The **nebulite** field guide.' } },
      { operation: 'insert_page', title: 'Calibrating', document: { markdown: 'Calibrate the nebulite sensor before each flight.' } },
      { operation: 'insert_page', title: 'Storing', document: { markdown: 'Keep the sensor dry.' } },
    ]);
    await mergeChangeRequest(admin, spaceId, cr.id);
    pub = await createPublishedSite(admin, orgId, [spaceId], 'public');
  }, 240_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await sut?.stop();
  });

  test('a public site: tools, search, a page as its .md URL answers it, the pages as resources', async () => {
    const client = await connect(`${pub.url}/~gitbook/mcp`);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['getPage', 'searchDocumentation']);
    // the site's search, once the merge is indexed (the reader's search page shows the same hits)
    await until(
      async () => (await (await fetch(`${pub.url}/~search.json?q=calibrate`)).json()) as { results: unknown[] },
      (b) => b.results.length > 0,
    );
    const found = textOf(await client.callTool({ name: 'searchDocumentation', arguments: { query: 'calibrate' } }));
    expect(found).toContain('## Calibrating');
    const url = /^URL: (\S+)$/m.exec(found)?.[1];
    expect(url?.startsWith(`${pub.url}/`)).toBe(true);
    const page = textOf(await client.callTool({ name: 'getPage', arguments: { url } }));
    expect(page).toContain('Calibrate the nebulite sensor before each flight.');
    expect(page).toBe(await (await fetch(`${url!.split('#')[0]}.md`)).text());

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['Overview', 'Calibrating', 'Storing']);
    expect(resources.every((r) => r.uri.startsWith(`${pub.url}/`) && r.uri.endsWith('.md') && r.mimeType === 'text/markdown')).toBe(true);
    const read = await client.readResource({ uri: resources[2].uri });
    expect((read.contents[0] as { text: string }).text).toContain('Keep the sensor dry.');
  });

  test('llms-full.txt: the pages in the tree’s order, each headed with its title and URL; Accept: text/markdown', async () => {
    const full = await (await fetch(`${pub.url}/llms-full.txt`)).text();
    expect([...full.matchAll(/^title: "(.+)"$/gm)].map((m) => m[1])).toEqual(['Overview', 'Calibrating', 'Storing']);
    expect(full).toContain(`url: ${pub.url}/\n`);
    expect(full.indexOf('The **nebulite** field guide.')).toBeLessThan(full.indexOf('Keep the sensor dry.'));
    const urls = [...full.matchAll(/^url: (\S+)$/gm)].map((m) => m[1]);
    for (const [accept, type] of [
      ['text/markdown', 'text/markdown'],
      ['text/html', 'text/html'],
      ['*/*', 'text/html'],
      ['text/markdown;q=0.5, text/html', 'text/html'],
    ]) {
      const res = await fetch(urls[1], { headers: { Accept: accept } });
      expect([accept, res.status, res.headers.get('content-type')?.split(';')[0], res.headers.get('vary')]).toEqual([accept, 200, type, 'Accept, Cookie']);
    }
  });

  test('a share-link site: 404 to a client without the key, as to the HTML; the share link’s address opens it', async () => {
    const site = await createPublishedSite(admin, orgId, [spaceId], 'share-link');
    const link = await createShareLink(admin, orgId, site.id);
    await expect(connect(`${site.url}/~gitbook/mcp`)).rejects.toMatchObject({ code: 404 });
    expect((await fetch(`${site.url}/`)).status).toBe(404);
    const client = await connect(shareUrl(site, link.key, '/~gitbook/mcp'));
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['Overview', 'Calibrating', 'Storing']);
    expect(textOf(await client.callTool({ name: 'getPage', arguments: { path: '' } }))).toContain('The **nebulite** field guide.');
  });

  test('a visitor-auth site: 404 without a token or with a forged one; the visitor token as a bearer token or jwt_token opens it', async () => {
    const site = await createPublishedSite(admin, orgId, [spaceId], 'visitor-auth');
    const auth = await admin.get(`/v1/orgs/${orgId}/sites/${site.id}/publishing/auth`);
    expect(auth.status).toBe(200);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const token = visitorToken({ sub: 'agent-1', exp }, auth.body.privateKey);
    await expect(connect(`${site.url}/~gitbook/mcp`)).rejects.toMatchObject({ code: 404 });
    await expect(connect(`${site.url}/~gitbook/mcp`, { Authorization: `Bearer ${visitorToken({ exp }, 'not-the-key')}` })).rejects.toMatchObject({ code: 404 });
    const bearer = await connect(`${site.url}/~gitbook/mcp`, { Authorization: `Bearer ${token}` });
    expect(textOf(await bearer.callTool({ name: 'getPage', arguments: { path: '' } }))).toContain('nebulite');
    const query = await connect(`${site.url}/~gitbook/mcp?jwt_token=${encodeURIComponent(token)}`);
    expect((await query.listResources()).resources).toHaveLength(3);
  });

  test('past its burst a client address is answered 429 with Retry-After; pages still answer', async () => {
    const post = () =>
      fetch(`${pub.url}/~gitbook/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i <= BURST && !refused; i++) {
      const res = await post();
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      else await res.text();
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect((await fetch(`${pub.url}/`)).status).toBe(200);
  });
});
