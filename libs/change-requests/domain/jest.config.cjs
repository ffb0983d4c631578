module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'change-requests-domain',
  rootDir: __dirname,
};
