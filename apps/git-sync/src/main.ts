import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { gitSyncService } from '@bindery/git-sync/feature-grpc';
import manifest from '../service.json';

serviceMain(gitSyncService, manifest as ServiceManifest);
