module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'identity-domain',
  rootDir: __dirname,
};
