'use strict';
// CPU time spent by given processes (Linux /proc), to see where a target's time goes.
const fs = require('node:fs');

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMs(pid) {
  try {
    // fields after the parenthesised command name: utime and stime are the 12th and 13th
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Snapshot of { name: pid }; calling the result gives CPU ms per process since the snapshot. */
function cpuSince(pids) {
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  return () => Object.fromEntries(Object.entries(pids)
    .map(([name, pid]) => [name, cpuMs(pid) - start[name]])
    .filter(([, ms]) => Number.isFinite(ms)));
}

module.exports = { cpuSince };
