/** The reader's site serving: routing, layout, caches, and the port to what it reads (docs/reader.md). */
export * from './source';
export * from './reader';
export * from './cached-source';
export * from './structure';
export { FixtureSource } from './fixture-source';
export type { FixtureSite, FixtureSpace } from './fixture-source';
export { sampleSites } from './sample-site';
export { ASSET_PREFIX } from './assets/assets';
export { serveSampleReader } from './testing/serve';
export type { ServedReader } from './testing/serve';
export { gradientPng } from './sample-site';
export { GrpcSource, toSiteView, defaultSiteCaller } from './grpc-source';
export type { GrpcSourceOptions, SiteScope } from './grpc-source';
export { freshnessHandlers, startFreshness } from './freshness';
export type { FreshnessOptions, Invalidatable } from './freshness';
export { startReader } from './start-reader';
export { CachedApiSpecs } from './api-specs';
export type { ApiSpecSource, ApiSpecAnswer } from './api-specs';
