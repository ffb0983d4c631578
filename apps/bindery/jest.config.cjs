module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'bindery',
  rootDir: __dirname,
};
