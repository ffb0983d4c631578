import { connectIdentity, identityAddressSetting } from '@bindery/identity/client';
import { parseArgs, runCommand, USAGE } from './cli-commands';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const token = process.env.BINDERY_ADMIN_TOKEN;
  if (!token) {
    process.stderr.write('BINDERY_ADMIN_TOKEN is required\n');
    return 2;
  }
  const clients = connectIdentity(process.env.IDENTITY_GRPC_URL || identityAddressSetting.IDENTITY_GRPC_URL.default, 10000);
  const identity = clients.identity;
  try {
    const result = await runCommand(identity, token, parseArgs(argv));
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    clients.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
