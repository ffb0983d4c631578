module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-contracts',
  rootDir: __dirname,
};
