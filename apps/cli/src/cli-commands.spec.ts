import { parseArgs } from './cli-commands';

describe('cli arguments', () => {
  it('reads a command and its options in both forms', () => {
    expect(parseArgs(['create-user', '--email', 'a@b.co', '--name=Ada Lovelace'])).toEqual({
      command: 'create-user',
      options: { email: 'a@b.co', name: 'Ada Lovelace' },
    });
  });

  it('refuses stray arguments', () => {
    expect(() => parseArgs(['create-user', 'oops'])).toThrow('unexpected argument "oops"');
  });
});
