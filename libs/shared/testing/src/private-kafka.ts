import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './ports';
import { WORKSPACE_ROOT } from './processes';

/**
 * A Kafka broker of one test's own, from the jars the local stack provisioned, for tests that take
 * the broker away (the shared one serves every other test running meanwhile). Single-node KRaft on
 * free loopback ports and a temporary folder, removed by `stop`.
 */
export interface PrivateKafka {
  brokers: string;
  /** SIGKILL: the broker is gone at once, as in a crash */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

function kafkaLibs(): string {
  const bin = join(process.env.BINDERY_CACHE_DIR ?? join(WORKSPACE_ROOT, '.cache', 'stack'), 'bin');
  const home = existsSync(bin) ? readdirSync(bin).find((d) => d.startsWith('kafka-') && existsSync(join(bin, d, 'READY'))) : undefined;
  if (!home) throw new Error('no provisioned Kafka in .cache/stack/bin: run npm start or npm test once');
  return join(bin, home, 'libs');
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

export async function startPrivateKafka(timeoutMs = 60000): Promise<PrivateKafka> {
  const [port, controller] = await freePorts(2);
  const dir = mkdtempSync(join(tmpdir(), 'bindery-kafka-'));
  const config = join(dir, 'server.properties');
  writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controller}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controller}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      `log.dirs=${join(dir, 'logs')}`,
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=false',
      '',
    ].join('\n'),
  );
  const java = ['-Xms64m', '-Xmx256m', '-cp', `${kafkaLibs()}/*`];
  execFileSync('java', [...java, 'kafka.tools.StorageTool', 'format', '-t', randomBytes(16).toString('base64url'), '-c', config], { stdio: 'ignore' });
  const child = spawn('java', [...java, 'kafka.Kafka', config], { stdio: 'ignore' });
  const deadline = Date.now() + timeoutMs;
  while (!(await portOpen(port))) {
    if (child.exitCode !== null) throw new Error(`the private Kafka broker exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the private Kafka broker did not listen within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const kill = async () => {
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    brokers: `127.0.0.1:${port}`,
    kill,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
