import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sharedSystem, SystemUnderTest, WORKSPACE_ROOT } from '@bindery/shared/testing';
import { http } from './http-client';

const run = promisify(execFile);

describe('the admin CLI', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await sharedSystem();
  });

  const cli = (args: string[], token = sut.adminToken) =>
    run(process.execPath, [join(WORKSPACE_ROOT, 'dist/apps/cli/main.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', IDENTITY_GRPC_URL: sut.env.IDENTITY_GRPC_URL, BINDERY_ADMIN_TOKEN: token, BINDERY_INTERNAL_SECRET: sut.env.BINDERY_INTERNAL_SECRET },
    });

  it('creates a user and a token that works on the API', async () => {
    const user = JSON.parse((await cli(['create-user', '--email', 'cli-made@example.com', '--name', 'From the CLI'])).stdout);
    expect(user).toMatchObject({ object: 'user', email: 'cli-made@example.com', displayName: 'From the CLI' });
    const token = JSON.parse((await cli(['create-token', '--user', user.id, '--label', 'laptop'])).stdout);
    expect(token).toMatchObject({ object: 'api-token', label: 'laptop' });
    const me = await http(sut.baseUrl, token.token).get('/v1/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });

  it('fails with a message and a non-zero exit for a bad token', async () => {
    await expect(cli(['create-user', '--email', 'x@example.com', '--name', 'X'], 'not-an-admin-token')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('error: The API token is not valid.'),
    });
  });
});
