module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-pagination',
  rootDir: __dirname,
};
