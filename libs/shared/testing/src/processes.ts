import { ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The workspace (the nearest folder above holding nx.json): from the sources, or from a bundle under dist/. */
export const WORKSPACE_ROOT = (() => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, 'nx.json'))) return dir;
  return join(__dirname, '../../../..');
})();

/** Where this run's app processes are listed, for the global teardown to stop any left running. */
export function pidDir(): string {
  return join(tmpdir(), `bindery-test-${process.env.BINDERY_TEST_RUN ?? 'adhoc'}`);
}

function recordPid(pid: number | undefined) {
  if (!pid) return;
  mkdirSync(pidDir(), { recursive: true });
  writeFileSync(join(pidDir(), String(pid)), '');
}

export interface AppProcess {
  name: string;
  child: ChildProcess;
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface AppLaunch {
  /** node flags before the app's (e.g. `--cpu-prof`) */
  nodeArgs?: string[];
  /** the OpenTelemetry preload (default on, as deployed) */
  telemetry?: boolean;
}

/**
 * Runs a built app (dist/apps/<name>/main.js, with the telemetry preload) as its own process and
 * waits until it listens on `port`. Its JSON log lines are kept in `output`. Alone an app starts in about
 * 2 s; the budget is for a 2-core machine running two suites' systems at once (a content start once
 * took more than 30 s there without printing a line).
 */
export async function startApp(name: string, port: number, env: Record<string, string>, timeoutMs = 60000, launch: AppLaunch = {}): Promise<AppProcess> {
  const preload = launch.telemetry === false ? [] : ['--require', join(WORKSPACE_ROOT, 'dist/apps/telemetry.js')];
  const child = spawn(process.execPath, ['--enable-source-maps', ...(launch.nodeArgs ?? []), ...preload, join(WORKSPACE_ROOT, `dist/apps/${name}/main.js`)], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env, BINDERY_SERVICE_NAME: name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  recordPid(child.pid);
  const output: string[] = [];
  // With BINDERY_TEST_LOG_DIR set (the test command sets it), every line is also kept in a file there,
  // so the whole run's logs can be searched for secrets once the suites end (tools/checks/secret-scan.js).
  const logDir = process.env.BINDERY_TEST_LOG_DIR;
  const logFile = logDir ? join(logDir, `${name}-${child.pid}.log`) : undefined;
  const collect = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never outlive the test process, whatever ends it (a timeout, a crash, Ctrl-C).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));
  const deadline = Date.now() + timeoutMs;
  while (!(await portAnswers(port))) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output.slice(-10).join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not listen on ${port}: ${output.slice(-10).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
