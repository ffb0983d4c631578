import { httpAppMain } from '@bindery/platform/service-runtime';
import { startReader } from '@bindery/reader/site';

httpAppMain('reader', () => startReader(process.env));
