import { type IdentityClient, identityAddressSetting } from '@bindery/identity/client';

export interface ParsedArgs {
  command?: string;
  options: Record<string, string>;
}

export const USAGE = `bindery-admin — instance administration

Usage:
  bindery-admin create-user --email <address> --name <display name>
  bindery-admin create-token --user <user id> [--label <label>]

Environment:
  IDENTITY_GRPC_URL     identity's gRPC address (default ${identityAddressSetting.IDENTITY_GRPC_URL.default})
  BINDERY_ADMIN_TOKEN   an instance administrator's API token (required)
  BINDERY_INTERNAL_SECRET  the services' internal secret, when they have one
`;

export function parseArgs(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(rest[i]);
    if (!m) throw new Error(`unexpected argument "${rest[i]}"`);
    options[m[1]] = m[2] ?? rest[++i] ?? '';
  }
  return { command: command && !command.startsWith('-') ? command : undefined, options };
}

function required(options: Record<string, string>, name: string): string {
  const v = options[name];
  if (!v) throw new Error(`--${name} is required`);
  return v;
}

/** Runs one command as the administrator whose token is given; returns the JSON to print. */
export async function runCommand(identity: IdentityClient, adminToken: string, args: ParsedArgs): Promise<unknown> {
  const auth = await identity.authenticate({ token: adminToken });
  const caller = { userId: auth.userId, isInstanceAdmin: auth.isInstanceAdmin };
  switch (args.command) {
    case 'create-user': {
      const u = await identity.createUser({ email: required(args.options, 'email'), displayName: required(args.options, 'name') }, { caller });
      return { object: 'user', id: u.id, displayName: u.displayName, email: u.email };
    }
    case 'create-token': {
      const t = await identity.createApiToken({ userId: required(args.options, 'user'), label: args.options.label }, { caller });
      return { object: 'api-token', id: t.id, label: t.label, token: t.token, createdAt: t.createdAt };
    }
    default:
      throw new Error(args.command ? `unknown command "${args.command}"` : 'no command given');
  }
}
