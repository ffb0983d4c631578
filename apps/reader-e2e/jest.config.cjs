module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'reader-e2e',
  rootDir: __dirname,
  // A real browser (Debian's chromium) drives the reader: launching and clicking through takes seconds.
  globals: { TEST_TIMEOUT_MS: 120000 },
};
