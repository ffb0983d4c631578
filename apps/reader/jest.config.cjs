module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'reader',
  rootDir: __dirname,
};
