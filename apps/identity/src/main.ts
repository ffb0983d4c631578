import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { identityService } from '@bindery/identity/feature-grpc';
import manifest from '../service.json';

serviceMain(identityService, manifest as ServiceManifest);
