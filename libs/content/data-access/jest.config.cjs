module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'content-data-access',
  rootDir: __dirname,
};
