import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { searchService } from '@bindery/search/feature-grpc';
import manifest from '../service.json';

serviceMain(searchService, manifest as ServiceManifest);
