module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'specs-client',
  rootDir: __dirname,
};
