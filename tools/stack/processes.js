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

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningPid(name) {
  try {
    const pid = Number(fs.readFileSync(pidFile(name), 'utf8'));
    return pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

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
  fs.writeFileSync(pidFile(name), String(child.pid));
  child.unref();
  return { pid: child.pid, logPath };
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
    await new Promise((r) => setTimeout(r, 200));
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

async function stop(name, { timeoutMs = 15000 } = {}) {
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
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
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

module.exports = { startDetached, runningPid, portOpen, waitFor, stop, isAlive };
