module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'reader-site',
  rootDir: __dirname,
};
