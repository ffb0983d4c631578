import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { specsService } from '@bindery/specs/feature-grpc';
import manifest from '../service.json';

serviceMain(specsService, manifest as ServiceManifest);
