import { httpAppMain } from '@bindery/platform/service-runtime';
import { startGateway } from '@bindery/gateway/server';

httpAppMain('gateway', () => startGateway(process.env));
