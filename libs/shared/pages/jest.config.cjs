module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-pages',
  rootDir: __dirname,
};
