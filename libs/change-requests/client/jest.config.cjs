module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'change-requests-client',
  rootDir: __dirname,
};
