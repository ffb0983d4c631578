module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'change-requests-data-access',
  rootDir: __dirname,
};
