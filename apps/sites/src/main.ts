import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { sitesService } from '@bindery/sites/feature-grpc';
import manifest from '../service.json';

serviceMain(sitesService, manifest as ServiceManifest);
