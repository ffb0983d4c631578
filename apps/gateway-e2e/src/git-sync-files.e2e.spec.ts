import { createHash, randomBytes } from 'node:crypto';
import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';
import { startTestGitServer, TestGitServer } from './git-server-fixtures';
import { gitSyncRuns } from './git-sync-run-fixtures';

const MB = 1024 * 1024;
/** content's per-file limit, lowered so that one file of the repository is over it */
const MAX_FILE_BYTES = 8 * MB;
const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

async function download(url: string) {
  const res = await fetch(url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('git sync imports files of any size a page refers to (streamed into content, one bad file skipped)', () => {
  let sut: SystemUnderTest;
  let git: TestGitServer;
  let admin: Client;
  let orgId: string;
  let runs: Awaited<ReturnType<typeof gitSyncRuns>>;

  beforeAll(async () => {
    git = await startTestGitServer();
    sut = await startSystem({ BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', CONTENT_FILE_MAX_BYTES: String(MAX_FILE_BYTES) }, { services: ['identity', 'content', 'git-sync'] });
    const owner = await createUser(sut, 'files-owner');
    orgId = await createOrganization(sut, owner, 'Git files');
    admin = http(sut.baseUrl, owner.token);
    runs = await gitSyncRuns(sut);
  }, 180_000);
  afterAll(async () => {
    await runs?.close();
    await sut?.stop();
    await git?.close();
  });

  test('a 5 MB recording imports byte-identical; a file over the limit fails alone, named with its reason', async () => {
    // incompressible, generated here: a GIF header then random bytes (5 MB, five times the inline limit of 1 MB)
    const gif = Buffer.concat([Buffer.from('GIF89a'), randomBytes(5 * MB)]);
    const huge = Buffer.concat([Buffer.from('GIF89a'), randomBytes(MAX_FILE_BYTES)]);
    const logo = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"/>\n');
    git.createRepository('files');
    git.commit('files', {
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Demo](demo.md)\n',
      'README.md': '# Welcome\n\n![The logo](.gitbook/assets/logo.svg)\n',
      'demo.md': '# Demo\n\n![Recording](<.gitbook/assets/CleanShot 2024-05-01.gif>)\n\n![Too long](.gitbook/assets/long.gif)\n',
      '.gitbook/assets/CleanShot 2024-05-01.gif': gif,
      '.gitbook/assets/long.gif': huge,
      '.gitbook/assets/logo.svg': logo,
    });
    const spaceId = (await createSpace(admin, orgId, { title: 'Files' })).id as string;

    const run = (await runs.start(admin, spaceId, 'import', { url: git.url('files') }, { timeoutMs: 120_000 })).run!;
    expect([run.status, run.reason]).toEqual(['completed', undefined]);
    expect(run.result).toMatchObject({
      files: 2,
      skippedFiles: [{ name: 'long.gif', paths: ['.gitbook/assets/long.gif'], reason: 'The file "long.gif" is larger than 8 MB.' }],
    });
    expect(run.progress?.message).toContain('1 file(s) not imported: .gitbook/assets/long.gif (The file "long.gif" is larger than 8 MB.)');

    const files = (await admin.get(`/v1/spaces/${spaceId}/content/files`)).body.items as Array<{
      id: string;
      name: string;
      size: number;
      contentType: string;
      downloadURL: string;
    }>;
    expect(files.map((f) => [f.name, f.size, f.contentType]).sort()).toEqual([
      ['CleanShot 2024-05-01.gif', gif.length, 'image/gif'],
      ['logo.svg', logo.length, 'image/svg+xml'],
    ]);
    const recording = await download(files.find((f) => f.name.endsWith('.gif'))!.downloadURL);
    expect(recording.status).toBe(200);
    expect(recording.bytes.length).toBe(gif.length);
    expect(sha256(recording.bytes)).toBe(sha256(gif));

    // the page naming the refused file keeps its source as written; the one naming the stored file points at it
    const pages = (await admin.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string }>;
    const demo = pages.find((p) => p.title === 'Demo')!;
    const markdown = (await admin.get(`/v1/spaces/${spaceId}/content/page/${demo.id}?format=markdown`)).body.markdown as string;
    expect(markdown).toContain('.gitbook/assets/long.gif');
    expect(markdown).not.toContain('CleanShot');
    expect(markdown).toContain(`/files/${files.find((f) => f.name.endsWith('.gif'))!.id}`);
  }, 180_000);
});
