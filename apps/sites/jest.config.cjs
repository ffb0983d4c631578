module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'sites',
  rootDir: __dirname,
};
