module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'specs',
  rootDir: __dirname,
};
