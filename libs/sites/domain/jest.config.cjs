module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'sites-domain',
  rootDir: __dirname,
};
