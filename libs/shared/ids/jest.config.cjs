module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-ids',
  rootDir: __dirname,
};
