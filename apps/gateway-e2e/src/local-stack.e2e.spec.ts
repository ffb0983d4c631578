import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMongo } from '@bindery/platform/mongo';
import { freePorts, infraEnv, WORKSPACE_ROOT } from '@bindery/shared/testing';

// `npm start` (tools/stack/cli.js) on the test infrastructure, in a cache folder of its own and on free
// ports: it starts only what is missing, and a killed service comes back while the gateway answers
// (one process per app, --split); the monolith is kept by a second start and replaced by a split one.
const cli = join(WORKSPACE_ROOT, 'tools/stack/cli.js');
// the stack's own notion of a live process: an exited piece not yet reaped by init is gone
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isAlive } = require(join(WORKSPACE_ROOT, 'tools/stack/processes')) as { isAlive(pid: number): boolean };

describe('npm start with pieces already running', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'bindery-stack-'));
  const run = randomBytes(4).toString('hex');
  let env: NodeJS.ProcessEnv;
  let gatewayPort: number;

  const stack = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [cli, ...args], { env, timeout: 120000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stdout}${stderr}`)) : resolve(stdout),
      ),
    );
  const pidOf = (name: string): number => JSON.parse(readFileSync(join(cacheDir, 'run', `${name}.pid`), 'utf8')).pid;
  const healthz = () =>
    new Promise<string>((resolve) => {
      get({ host: '127.0.0.1', port: gatewayPort, path: '/healthz', agent: false }, (res) => {
        res.resume();
        resolve(String(res.statusCode));
      }).once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });

  beforeAll(async () => {
    const [identityPort, port] = await freePorts(2);
    gatewayPort = port;
    env = {
      PATH: process.env.PATH,
      ...infraEnv(),
      BINDERY_CACHE_DIR: cacheDir,
      KAFKA_NAMESPACE: `stack${run}.`,
      IDENTITY_DB: `e2e_stack_identity_${run}`,
      IDENTITY_GRPC_PORT: String(identityPort),
      PORT: String(gatewayPort),
      BINDERY_INTERNAL_SECRET: randomBytes(32).toString('hex'),
    };
    await stack('start', '--split', 'identity', 'gateway');
  });

  afterAll(async () => {
    await stack('stop', 'gateway', 'identity').catch(() => undefined);
    await stack('stop', 'bindery').catch(() => undefined);
    const mongo = await connectMongo(infraEnv().MONGODB_URL, `e2e_stack_identity_${run}`, 'tests');
    await mongo.db.dropDatabase();
    await mongo.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  test('a second start leaves every running piece alone', async () => {
    const before = { identity: pidOf('identity'), gateway: pidOf('gateway') };
    const output = await stack('start', '--split', 'identity', 'gateway');
    expect({ identity: pidOf('identity'), gateway: pidOf('gateway') }).toEqual(before);
    expect(output).toMatch(/identity running \(pid/);
    expect(output).toMatch(/gateway running \(pid/);
  });

  test('a killed service is started again; the gateway keeps its process and answers all along', async () => {
    const gateway = pidOf('gateway');
    const identity = pidOf('identity');
    const outcomes: string[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) outcomes.push(await healthz());
    })();
    process.kill(identity, 'SIGKILL');
    const output = await stack('start', '--split', 'identity', 'gateway');
    polling = false;
    await poll;
    expect(output).toMatch(/identity started on port/);
    expect(pidOf('identity')).not.toBe(identity);
    expect(pidOf('gateway')).toBe(gateway);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set(['200']));
  });

  test('npm stop -- <service> stops that one only', async () => {
    const gateway = pidOf('gateway');
    const identity = pidOf('identity');
    await stack('stop', 'identity');
    expect(isAlive(identity)).toBe(false);
    expect(existsSync(join(cacheDir, 'run', 'identity.pid'))).toBe(false);
    expect(isAlive(gateway)).toBe(true);
  });

  test('the monolith: one process for the apps, kept by a second start, its apps not stopped one by one', async () => {
    await stack('start', 'identity', 'gateway');
    const monolith = pidOf('bindery');
    expect(existsSync(join(cacheDir, 'run', 'gateway.pid'))).toBe(false);
    expect(await healthz()).toBe('200');
    await stack('start', 'identity', 'gateway');
    expect(pidOf('bindery')).toBe(monolith);
    await expect(stack('stop', 'identity')).rejects.toThrow();
    expect(isAlive(monolith)).toBe(true);
    await stack('stop', 'bindery');
    expect(isAlive(monolith)).toBe(false);
  });
});
