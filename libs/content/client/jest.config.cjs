module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'content-client',
  rootDir: __dirname,
};
