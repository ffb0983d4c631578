module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-telemetry',
  rootDir: __dirname,
};
