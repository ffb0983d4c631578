module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'sites-client',
  rootDir: __dirname,
};
