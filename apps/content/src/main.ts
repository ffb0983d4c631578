import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { contentService } from '@bindery/content/feature-grpc';
import manifest from '../service.json';

serviceMain(contentService, manifest as ServiceManifest);
