module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-text',
  rootDir: __dirname,
};
