import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { changeRequestsService } from '@bindery/change-requests/feature-grpc';
import manifest from '../service.json';

serviceMain(changeRequestsService, manifest as ServiceManifest);
