'use strict';
// Local MongoDB-wire server: FerretDB 1.x built from the Go module proxy, SQLite backend in the data folder.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { binDir, dataDir, cacheDir, ports } = require('./paths');
const { startDetached, runningPid, portOpen, waitFor } = require('./processes');

const VERSION = 'v1.24.0';
const MODULE = 'github.com/FerretDB/FerretDB';
const binary = path.join(binDir, `ferretdb-${VERSION}`);

function provision(log) {
  if (fs.existsSync(binary)) return;
  log(`building FerretDB ${VERSION} from the Go module proxy (first start only)`);
  const goEnv = { ...process.env, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' };
  const info = JSON.parse(execFileSync('go', ['mod', 'download', '-json', `${MODULE}@${VERSION}`], { env: goEnv, encoding: 'utf8' }));
  // The module cache is read-only and lacks the generated version file the binary insists on,
  // so build from a private copy with that file written in.
  const src = path.join(cacheDir, 'src', `ferretdb-${VERSION}`);
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(src), { recursive: true });
  fs.cpSync(info.Dir, src, { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', src]);
  fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `${VERSION}\n`);
  fs.writeFileSync(path.join(src, 'build', 'version', 'package.txt'), 'bindery-local\n');
  fs.mkdirSync(binDir, { recursive: true });
  execFileSync('go', ['build', '-trimpath', '-o', binary + '.tmp', './cmd/ferretdb'], { cwd: src, env: goEnv, stdio: 'inherit' });
  fs.renameSync(binary + '.tmp', binary);
  fs.rmSync(src, { recursive: true, force: true });
}

async function start(log) {
  const url = `mongodb://127.0.0.1:${ports.mongo}/`;
  if (runningPid('ferretdb') && (await portOpen(ports.mongo))) return url;
  if (await portOpen(ports.mongo)) throw new Error(`port ${ports.mongo} is taken by a process this stack did not start; stop it or choose another port (docs/configuration.md)`);
  provision(log);
  const data = path.join(dataDir, 'ferretdb');
  const state = path.join(dataDir, 'ferretdb-state');
  fs.mkdirSync(data, { recursive: true });
  fs.mkdirSync(state, { recursive: true });
  const { pid, logPath } = startDetached('ferretdb', binary, [
    '--handler=sqlite',
    `--sqlite-url=file:${data}/`,
    `--state-dir=${state}`,
    `--listen-addr=127.0.0.1:${ports.mongo}`,
    '--debug-addr=-',
    '--telemetry=disable',
    '--log-level=warn',
    '--log-format=json',
  ]);
  await waitFor(() => portOpen(ports.mongo), { timeoutMs: 30000, what: 'FerretDB', pid, logPath });
  return url;
}

module.exports = { start, VERSION };
