module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'identity-client',
  rootDir: __dirname,
};
