module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'content-domain',
  rootDir: __dirname,
};
