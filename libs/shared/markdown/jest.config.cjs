module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-markdown',
  rootDir: __dirname,
};
