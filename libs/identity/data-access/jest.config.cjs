module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'identity-data-access',
  rootDir: __dirname,
};
