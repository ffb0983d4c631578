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

module.exports = { cpuSince };
