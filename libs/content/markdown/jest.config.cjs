module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'content-markdown',
  rootDir: __dirname,
};
