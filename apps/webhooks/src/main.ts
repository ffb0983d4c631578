import { serviceMain, ServiceManifest } from '@bindery/platform/service-runtime';
import { webhooksService } from '@bindery/webhooks/feature-grpc';
import manifest from '../service.json';

serviceMain(webhooksService, manifest as ServiceManifest);
