import { ClientsOf, clientSet } from '@bindery/platform/grpc';
import { gitSyncV1 } from '@bindery/shared/contracts';

const SERVICES = { gitSync: gitSyncV1.GitSyncServiceService };

/** Typed clients of git-sync's gRPC services (deadline and signed caller on each call). */
export const connectGitSync = clientSet(SERVICES);
export type GitSyncClients = ClientsOf<typeof SERVICES>;
