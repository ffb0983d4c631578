module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'shared-roles',
  rootDir: __dirname,
};
