'use strict';
// Detached background processes with pid files, and waiting for their ports.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { logDir, runDir } = require('./paths');

function pidFile(name) {
  return path.join(runDir, `${name}.pid`);
}

/** Whether `pid` runs. An exited process not yet reaped by its parent (a zombie: the stack's pieces
 * are orphans, reaped by init whenever it gets to it) counts as gone. */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!hasProc) return true;
  try {
    // /proc/<pid>/stat: "pid (command) state …"; the command may hold spaces or parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
const hasProc = fs.existsSync('/proc/self/stat');

/**
 * A piece's pid file: `{"pid":…,"port":…,"build":…}` (a bare number in files written before ports and
 * builds were recorded). Answers undefined unless that process is alive and still runs `marker`
 * (a pid reused by an unrelated process after a reboot is not ours).
 */
function runningState(name) {
  let state;
  try {
    const text = fs.readFileSync(pidFile(name), 'utf8').trim();
    state = /^\d+$/.test(text) ? { pid: Number(text) } : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!state.pid || !isAlive(state.pid)) return undefined;
  if (state.marker && !commandLineHas(state.pid, state.marker)) return undefined;
  return state;
}

/** Whether the process's command line mentions `marker` (true where /proc is not available). */
function commandLineHas(pid, marker) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch (err) {
    return err.code !== 'ENOENT' || !fs.existsSync('/proc/self');
  }
}

function runningPid(name) {
  return runningState(name)?.pid;
}

/** Starts `command` in its own process group, its output appended to logs/<name>.log; `record` joins the pid file. */
function startDetached(name, command, args, options = {}) {
  fs.mkdirSync(logDir, { recursive: true });
  fs.mkdirSync(runDir, { recursive: true });
  const logPath = path.join(logDir, `${name}.log`);
  const out = fs.openSync(logPath, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  fs.writeFileSync(pidFile(name), JSON.stringify({ pid: child.pid, marker: options.marker, ...options.record }));
  child.unref();
  return { pid: child.pid, logPath };
}

/** Whether `host:port` can be listened on now (nothing listens there, and no socket holds it). */
function portFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function portOpen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(check, { timeoutMs, what, pid, logPath }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    if (pid && !isAlive(pid)) {
      throw new Error(`${what} exited during start; see ${logPath}:\n${tail(logPath)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms; see ${logPath}:\n${tail(logPath)}`);
}

function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** SIGTERM to the piece's process group; SIGKILL if it is still there after `timeoutMs`. */
async function stop(name, { timeoutMs = 10000 } = {}) {
  const pid = runningPid(name);
  if (!pid) return false;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (isAlive(pid)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  fs.rmSync(pidFile(name), { force: true });
  return true;
}

module.exports = { startDetached, runningState, runningPid, portOpen, portFree, waitFor, stop, isAlive };
