module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'change-requests',
  rootDir: __dirname,
};
