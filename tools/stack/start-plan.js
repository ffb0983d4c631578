'use strict';
// What `npm start` does with one piece (a service or the gateway), decided from what it found. The
// rule: a piece that runs and answers, on the port and build wanted, is left alone; one that is gone
// is started; one that runs but does not answer, or runs another port, build or settings, is restarted. Pieces
// are decided one by one: restarting a service never restarts the gateway in front of it.

/**
 * @param {object} found
 * @param {{ pid: number, port?: number, build?: string } | undefined} found.running  its pid file, if its process is alive
 * @param {'serving' | 'not-serving' | 'no-answer' | undefined} found.health  how it answered (when running)
 * @param {number} found.port  the port it should listen on
 * @param {string} found.build  the fingerprint of the code it should run
 * @param {string} [found.settings]  the fingerprint of the settings it should run with
 * @returns {{ action: 'keep' | 'start' | 'restart', reason: string }}
 */
function decide({ running, health, port, build, settings }) {
  if (!running) return { action: 'start', reason: 'not running' };
  if (running.port !== undefined && running.port !== port) return { action: 'restart', reason: `it listens on ${running.port}, wanted ${port}` };
  if (running.build !== undefined && running.build !== build) return { action: 'restart', reason: 'its code changed' };
  if (running.settings !== undefined && settings !== undefined && running.settings !== settings) return { action: 'restart', reason: 'its settings changed' };
  if (health === 'no-answer') return { action: 'restart', reason: `it does not answer on port ${port}` };
  if (health === 'not-serving') return { action: 'keep', reason: 'running; it reports a dependency down' };
  return { action: 'keep', reason: 'running' };
}

module.exports = { decide };
