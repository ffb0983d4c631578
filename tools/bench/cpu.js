'use strict';
// CPU time spent by given processes (Linux /proc), to see where a target's time goes.
const fs = require('node:fs');

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMs(pid) {
  try {
    // fields after the parenthesised command name: utime and stime are the 12th and 13th
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Busy CPU ms of the whole machine, all cores together. */
function machineBusyMs() {
  try {
    // cpu  user nice system idle iowait irq softirq steal …
    const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1, 9).map(Number);
    return (user + nice + system + irq + softirq + steal) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * Snapshot of { name: pid }. Calling the result gives { perProcess: CPU ms per process since the
 * snapshot, otherMs: CPU ms the rest of the machine used meanwhile (noise from other work) }.
 */
function cpuSince(pids) {
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const busyStart = machineBusyMs();
  return () => {
    const perProcess = Object.fromEntries(
      Object.entries(pids)
        .map(([name, pid]) => [name, cpuMs(pid) - start[name]])
        .filter(([, ms]) => Number.isFinite(ms)),
    );
    const ours = Object.values(perProcess).reduce((a, b) => a + b, 0);
    return { perProcess, otherMs: Math.max(0, machineBusyMs() - busyStart - ours) };
  };
}

/** The pid of the process listening on a local TCP port (Linux /proc; undefined when not ours to see). */
function pidListening(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      // local address, state 0A (LISTEN), inode
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A') inodes.add(`socket:[${f[9]}]`);
    }
  }
  if (!inodes.size) return undefined;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readdirSync(`/proc/${pid}/fd`).some((fd) => inodes.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`)))) return Number(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

module.exports = { cpuSince, pidListening };
