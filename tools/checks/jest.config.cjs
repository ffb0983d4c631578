module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'workspace-checks',
  rootDir: __dirname,
  // Whole-workspace checks (lint, the stack's start plan) read every project.
  globals: { TEST_TIMEOUT_MS: 120000 },
};
