module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'specs-domain',
  rootDir: __dirname,
};
