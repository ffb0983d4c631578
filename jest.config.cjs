// Every project's tests in one run (npm test). Each project keeps its own jest.config.cjs for nx.
const fs = require('node:fs');
const path = require('node:path');

function projectConfigs(dir, depth) {
  if (!fs.existsSync(dir)) return [];
  if (fs.existsSync(path.join(dir, 'jest.config.cjs'))) return [path.join(dir, 'jest.config.cjs')];
  if (depth === 0) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'node_modules')
    .flatMap((e) => projectConfigs(path.join(dir, e.name), depth - 1));
}

module.exports = {
  projects: [
    ...projectConfigs(path.join(__dirname, 'apps'), 1),
    ...projectConfigs(path.join(__dirname, 'libs'), 2),
    ...projectConfigs(path.join(__dirname, 'deploy'), 0),
    ...projectConfigs(path.join(__dirname, 'tools/checks'), 0),
  ],
  maxWorkers: 2,
  // Each project sets its own tier's timeout (globals.TEST_TIMEOUT_MS, tools/test/test-timeout.cjs).
};
