module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'content',
  rootDir: __dirname,
};
