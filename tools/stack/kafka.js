'use strict';
// Local Kafka: Apache Kafka's own jars from Maven Central, single-node KRaft, on the machine's Java.
// 3.9.x is the last line whose protocol versions kafkajs 2.2.4 speaks (Kafka 4 dropped the old ones).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { binDir, dataDir, ports } = require('./paths');
const { startDetached, runningState, portOpen, waitFor, stop } = require('./processes');

const VERSION = '3.9.1';
const home = path.join(binDir, `kafka-${VERSION}`);
const libs = path.join(home, 'libs');

function pom() {
  return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bindery.local</groupId><artifactId>kafka-runtime</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${VERSION}</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
`;
}

function provision(log) {
  if (fs.existsSync(path.join(home, 'READY'))) return;
  log(`fetching Apache Kafka ${VERSION} from Maven Central (first start only)`);
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'pom.xml'), pom());
  execFileSync('mvn', ['-q', '-B', 'dependency:copy-dependencies', `-DoutputDirectory=${libs}`, '-DincludeScope=runtime'], { cwd: home, stdio: 'inherit' });
  fs.writeFileSync(
    path.join(home, 'log4j.properties'),
    [
      'log4j.rootLogger=WARN, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(home, 'READY'), VERSION);
}

function properties(logDirs) {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${ports.kafkaController}`,
    `listeners=PLAINTEXT://127.0.0.1:${ports.kafka},CONTROLLER://127.0.0.1:${ports.kafkaController}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${ports.kafka}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${logDirs}`,
    'num.partitions=3',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=3',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    // An idle single-node broker: the controller writes a no-op metadata record and the broker
    // heartbeats its controller less often (defaults 500 ms and 2 s; the broker is its own controller).
    'metadata.max.idle.interval.ms=30000',
    'broker.heartbeat.interval.ms=4000',
    'broker.session.timeout.ms=18000',
    // a few request and background threads are plenty for one machine's stack; high watermarks are
    // checkpointed every minute rather than every 5 s (a restart recovers them from the logs anyway)
    'num.io.threads=2',
    'num.network.threads=2',
    'background.threads=2',
    'log.cleaner.threads=1',
    'replica.high.watermark.checkpoint.interval.ms=60000',
    // deleted topics (the test runs' namespaces, tools/test/test-topics.js) leave the disk at once
    'file.delete.delay.ms=1000',
    '',
  ].join('\n');
}

// A small local broker: serial GC and the client compiler only (less memory and idle work than G1 and C2,
// measured in docs/local-stack.md), at most a 384 MB heap (a whole test run keeps thousands of partitions).
function java(args) {
  return [
    '-Xms32m',
    '-Xmx384m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-XX:ReservedCodeCacheSize=48m',
    '-XX:MaxMetaspaceSize=128m',
    '-Xss512k',
    '-XX:-UsePerfData',
    `-Dlog4j.configuration=file:${path.join(home, 'log4j.properties')}`,
    '-cp',
    `${libs}/*`,
    ...args,
  ];
}

async function start(log) {
  const brokers = `127.0.0.1:${ports.kafka}`;
  const running = runningState('kafka');
  if (running && (running.port ?? ports.kafka) === ports.kafka && (await portOpen(ports.kafka))) return brokers;
  if (running) {
    log(
      `Kafka (pid ${running.pid}) ${running.port && running.port !== ports.kafka ? `runs on port ${running.port}, wanted ${ports.kafka}` : `does not answer on port ${ports.kafka}`}; restarting it`,
    );
    await stop('kafka');
  }
  if (await portOpen(ports.kafka)) throw new Error(`port ${ports.kafka} is taken by a process this stack did not start; stop it or choose another port (docs/configuration.md)`);
  provision(log);
  const logDirs = path.join(dataDir, 'kafka');
  const config = path.join(dataDir, 'kafka.properties');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(config, properties(logDirs));
  if (!fs.existsSync(path.join(logDirs, 'meta.properties'))) {
    // A KRaft cluster id is a base64url UUID; the storage must be formatted once. Given as
    // `--cluster-id=<id>`: an id starting with `-` (1 in 64) would otherwise be read as an option.
    const clusterId = crypto.randomBytes(16).toString('base64url');
    execFileSync('java', java(['kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', config]), { stdio: 'ignore' });
  }
  // A port just released by a previous broker can refuse the bind for a moment: try a few times.
  for (let attempt = 1; ; attempt++) {
    const { pid, logPath } = startDetached('kafka', 'java', java(['kafka.Kafka', config]), { marker: 'kafka.Kafka', record: { port: ports.kafka } });
    try {
      await waitFor(() => portOpen(ports.kafka), { timeoutMs: 60000, what: 'Kafka', pid, logPath });
      return brokers;
    } catch (err) {
      if (attempt >= 3 || !/Address already in use/.test(err.message)) throw err;
      log(`Kafka could not bind its port yet (attempt ${attempt}); retrying`);
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
}

module.exports = { start, VERSION };
