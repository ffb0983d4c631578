import { RunRecord } from '@bindery/platform/runs';
import { sharedSystem, sharedOutboundSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { gitSyncRuns } from './git-sync-run-fixtures';
import { recorder, refusedUrlSpellings } from './ssrf-fixtures';

/** Remotes only git understands (other transports, remote helpers, options, local paths), all aimed at the canary's port. */
function gitOnlySpellings(p: number): string[] {
  return [
    'file:///etc/passwd',
    'file://localhost/tmp/repo.git',
    '/tmp/repo.git',
    './repo.git',
    '../../repo.git',
    `ssh://git@127.0.0.1:${p}/repo.git`,
    'ssh://-oProxyCommand=touch%20/tmp/pwned/repo.git',
    `git+ssh://git@127.0.0.1:${p}/repo.git`,
    `ssh+git://git@127.0.0.1:${p}/repo.git`,
    `git://127.0.0.1:${p}/repo.git`,
    'git@127.0.0.1:repo.git',
    `git@localhost:${p}/repo.git`,
    '127.0.0.1:repo.git',
    `ext::sh -c curl% http://127.0.0.1:${p}/`,
    'ext::git-upload-pack /tmp/repo.git',
    'fd::0',
    'fd::3,4/repo.git',
    `http::http://127.0.0.1:${p}/repo.git`,
    `https::127.0.0.1:${p}/repo.git`,
    `testgit::/tmp/repo.git`,
    `svn://127.0.0.1:${p}/repo`,
    `svn+ssh://127.0.0.1:${p}/repo`,
    `rsync://127.0.0.1:${p}/repo.git`,
    `ftps://127.0.0.1:${p}/repo.git`,
    '--upload-pack=touch /tmp/pwned',
    '-uhttp://127.0.0.1/',
    `HTTP://127.0.0.1:${p}/repo.git`,
    `http:127.0.0.1:${p}/repo.git`,
    `http:/127.0.0.1:${p}/repo.git`,
    `http:\\\\127.0.0.1:${p}\\repo.git`,
    `http://public.example@127.0.0.1:${p}/repo.git`,
    `http://public.example:443@127.0.0.1:${p}/repo.git`,
    `http://127.0.0.1:${p}/repo.git?service=git-upload-pack`,
    `http://127.0.0.1:${p}/repo.git#main`,
    `data:text/plain,repo`,
  ];
}

/** A refused remote: a 400 at once, or a run that failed without an attempt reaching anything, saying why. */
async function tryRemote(runs: Awaited<ReturnType<typeof gitSyncRuns>>, admin: Client, spaceId: string, op: 'import' | 'export', url: string) {
  const { status, body, run } = await runs.start(admin, spaceId, op, { url });
  return {
    url,
    op,
    status,
    message: status === 400 ? String(body?.error?.message ?? '') : undefined,
    run: run && { status: run.status, reason: run.reason, attempt: run.attempt },
  };
}

describe('git sync refuses loopback, private and metadata remotes and other transports (outbound guard on, as by default)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('canary'));
    redirector = await recorder((req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}${req.url}` }).end());
    sut = await sharedSystem();
    expect(sut.env.BINDERY_OUTBOUND_ALLOW_PRIVATE).toBeUndefined();
    const owner = await createUser(sut, 'git-ssrf-owner');
    orgId = await createOrganization(sut, owner, 'Git SSRF');
    admin = http(sut.baseUrl, owner.token);
    runs = await gitSyncRuns(sut);
  });
  afterAll(async () => {
    await runs?.close();
    await canary?.close();
    await redirector?.close();
  });

  test('80+ spellings through import, some through export: each a 400 or a failed run saying why; no request reaches the canary', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Git SSRF' })).id as string;
    const urls = [...refusedUrlSpellings(canary.port, redirector.port, '/repo.git'), ...gitOnlySpellings(canary.port)];
    expect(urls.length).toBeGreaterThanOrEqual(80);
    const answers = [];
    for (const url of urls) answers.push(await tryRemote(runs, admin, spaceId, 'import', url));
    for (const url of [
      `http://127.0.0.1:${canary.port}/repo.git`,
      `http://[::1]:${canary.port}/repo.git`,
      `http://0x7f000001:${canary.port}/repo.git`,
      `ssh://git@127.0.0.1:${canary.port}/r.git`,
      'git@127.0.0.1:r.git',
    ]) {
      answers.push(await tryRemote(runs, admin, spaceId, 'export', url));
    }
    // a 400, or a run refused on its first attempt with the reason
    const wrong = answers.filter(
      (a) =>
        !(
          a.status === 400 ||
          (a.status === 204 &&
            a.run?.status === 'failed' &&
            a.run.attempt === 1 &&
            /^The remote is refused: its (address is not public|host did not resolve)\.$/.test(a.run.reason ?? ''))
        ),
    );
    expect(wrong).toEqual([]);
    // no answer nor reason repeats a URL (it may carry credentials)
    expect(answers.filter((a) => /secret|repo\.git|meta-data|passwd/.test(`${a.message ?? ''} ${a.run?.reason ?? ''}`))).toEqual([]);
    expect(canary.requests).toEqual([]);
    expect(redirector.requests).toEqual([]);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
    const tally = { refused400: answers.filter((a) => a.status === 400).length, failedRuns: answers.filter((a) => a.run).length, canaryRequests: canary.requests.length };
    console.log(JSON.stringify(tally));
  }, 300_000);
});

describe('git sync does not follow redirects (outbound guard open to loopback)', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;
  let canary: Awaited<ReturnType<typeof recorder>>;
  let redirector: Awaited<ReturnType<typeof recorder>>;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    canary = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('canary'));
    // a "public" remote that sends git elsewhere: to the canary, to a transport git must not use, to metadata
    redirector = await recorder((req, res) => {
      const to = req.url!.startsWith('/file/')
        ? 'file:///etc/passwd'
        : req.url!.startsWith('/meta/')
          ? 'http://169.254.169.254/latest/meta-data/'
          : `http://127.0.0.1:${canary.port}${req.url}`;
      res.writeHead(req.url!.startsWith('/perm/') ? 301 : 302, { location: to }).end();
    });
    sut = await sharedOutboundSystem();
    const owner = await createUser(sut, 'git-redirect-owner');
    orgId = await createOrganization(sut, owner, 'Git redirects');
    admin = http(sut.baseUrl, owner.token);
    runs = await gitSyncRuns(sut);
  }, 180_000);
  afterAll(async () => {
    await runs?.close();
    await canary?.close();
    await redirector?.close();
  });

  test('302 and 301 to the canary, to file: and to metadata: the runs fail, the canary sees nothing', async () => {
    const spaceId = (await createSpace(admin, orgId, { title: 'Git redirects' })).id as string;
    const failed: RunRecord[] = [];
    for (const path of ['/repo.git', '/perm/repo.git', '/file/repo.git', '/meta/repo.git']) {
      for (const op of ['import', 'export'] as const) {
        const { status, run } = await runs.start(admin, spaceId, op, { url: `http://127.0.0.1:${redirector.port}${path}` });
        expect(status).toBe(204);
        failed.push(run!);
      }
    }
    expect(failed.map((r) => r.status)).toEqual(Array(8).fill('failed'));
    expect(failed.filter((r) => /127\.0\.0\.1|repo\.git|passwd/.test(r.reason ?? ''))).toEqual([]);
    // git asked the redirector, and went no further
    expect(redirector.requests.length).toBeGreaterThanOrEqual(8);
    expect(canary.requests).toEqual([]);
    expect((await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages).toEqual([]);
  }, 300_000);
});
