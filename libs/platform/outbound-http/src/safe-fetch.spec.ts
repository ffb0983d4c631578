import { type LoopbackServer, startLoopbackServer } from './loopback-test-server';
import { OutboundAddressRefusedError, OutboundSchemeRefusedError } from './outbound-errors';
import { outboundPolicyFromEnv } from './policy-from-env';
import { safeFetch } from './safe-fetch';
import type { Resolver } from './vet-host';

describe('safeFetch against a loopback server', () => {
  let server: LoopbackServer;

  beforeEach(async () => {
    server = await startLoopbackServer((req, res) => {
      if (req.url === '/hang') return; // never answers
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end(JSON.stringify({ method: req.method, url: req.url }));
    });
  });
  afterEach(() => server.close());

  it('refuses http://127.0.0.1:<port> by default without connecting', async () => {
    const attempt = safeFetch(`${server.origin}/`);
    await expect(attempt).rejects.toBeInstanceOf(OutboundAddressRefusedError);
    await expect(attempt).rejects.toMatchObject({ code: 'OUTBOUND_REFUSED', host: '127.0.0.1' });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses when the policy read from the environment says false', async () => {
    const policy = outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'false' });
    await expect(safeFetch(`${server.origin}/`, { ...policy })).rejects.toThrow(OutboundAddressRefusedError);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    (port: number) => `http://2130706433:${port}/`,
    (port: number) => `http://0177.0.0.1:${port}/`,
    (port: number) => `http://0x7f.1:${port}/`,
    (port: number) => `http://127.1:${port}/`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/`,
    (port: number) => `http://[::1]:${port}/`,
    (port: number) => `http://localhost:${port}/`,
  ])('refuses the disguised loopback form %#', async (makeUrl) => {
    await expect(safeFetch(makeUrl(server.port))).rejects.toThrow(OutboundAddressRefusedError);
    expect(server.requests).toHaveLength(0);
  });

  it('reaches the server when allowPrivate is true', async () => {
    const response = await safeFetch(`${server.origin}/hello?x=1#frag`, { allowPrivate: true });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.url).toBe(`${server.origin}/hello?x=1`);
    expect(response.redirected).toBe(false);
    expect(await response.json()).toEqual({ method: 'GET', url: '/hello?x=1' });
  });

  it('sends method, headers and body like fetch', async () => {
    const response = await safeFetch(`${server.origin}/submit`, {
      allowPrivate: true,
      method: 'POST',
      headers: { 'x-trace': 'abc' },
      body: JSON.stringify({ a: 1 }),
    });
    await response.arrayBuffer();
    const [seen] = server.requests;
    expect(seen?.method).toBe('POST');
    expect(seen?.body).toBe('{"a":1}');
    expect(seen?.headers['x-trace']).toBe('abc');
    expect(seen?.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(seen?.headers['content-length']).toBe('7');
  });

  it('connects to the address the resolver vetted, not to a fresh DNS answer', async () => {
    const resolve = jest.fn<ReturnType<Resolver>, Parameters<Resolver>>(async () => [{ address: '127.0.0.1', family: 4 }]);
    const response = await safeFetch(`http://pinned.test:${server.port}/via-name`, { allowPrivate: true, resolve });
    expect(await response.text()).toContain('/via-name');
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('pinned.test');
    expect(server.requests[0]?.headers.host).toBe(`pinned.test:${server.port}`);
  });

  it('refuses a name when any resolved address is forbidden', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:127.0.0.1', family: 6 },
    ];
    await expect(safeFetch('http://mixed.example/', { resolve })).rejects.toMatchObject({
      code: 'OUTBOUND_REFUSED',
      host: 'mixed.example',
      address: '::ffff:127.0.0.1',
    });
  });

  it('turns URL credentials into Basic auth for allowed hosts', async () => {
    const url = `http://user:secret@127.0.0.1:${server.port}/auth`;
    await (await safeFetch(url, { allowPrivate: true })).text();
    const expected = `Basic ${Buffer.from('user:secret').toString('base64')}`;
    expect(server.requests[0]?.headers.authorization).toBe(expected);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi', 'gopher://example.com/', 'javascript:alert(1)'])('refuses the non-http scheme of %s', async (url) => {
    await expect(safeFetch(url, { allowPrivate: true })).rejects.toThrow(OutboundSchemeRefusedError);
  });

  it('times out with a TimeoutError', async () => {
    await expect(safeFetch(`${server.origin}/hang`, { allowPrivate: true, timeoutMs: 150 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it('does not wait past the deadline for a resolver that never answers', async () => {
    const resolve: Resolver = () => new Promise(() => undefined);
    await expect(safeFetch('http://slow-dns.example/', { resolve, timeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it('honours the caller abort signal', async () => {
    const controller = new AbortController();
    const attempt = safeFetch(`${server.origin}/hang`, { allowPrivate: true, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(attempt).rejects.toThrow('caller gave up');
  });
});

describe('safeFetch error messages', () => {
  const secretUrls = [
    'http://user:s3cr3t-pw@127.0.0.1:8080/p?token=t0ken-value',
    'http://user:s3cr3t-pw@[::1]/p?token=t0ken-value',
    'http://user:s3cr3t-pw@2130706433/p?token=t0ken-value',
    'ftp://user:s3cr3t-pw@example.com/p?token=t0ken-value',
    'http://user:s3cr3t-pw@[not-an-ip/p?token=t0ken-value',
  ];

  it.each(secretUrls)('do not leak the password or query of %s', async (url) => {
    const error: unknown = await safeFetch(url).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    const { message, stack } = error as Error;
    const serialised = `${message}\n${String(stack)}\n${JSON.stringify(error)}`;
    expect(serialised).not.toContain('s3cr3t-pw');
    expect(serialised).not.toContain('t0ken-value');
    expect(serialised).not.toContain('user:');
  });

  it('names the refused host', async () => {
    await expect(safeFetch('http://user:s3cr3t-pw@127.0.0.1/?q=1')).rejects.toThrow(/"127\.0\.0\.1"/);
  });
});
