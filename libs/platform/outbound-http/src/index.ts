export { isForbiddenAddress, stripIpDecoration } from './address-policy';
export { OutboundAddressRefusedError, OutboundRedirectLimitError, OutboundSchemeRefusedError } from './outbound-errors';
export { OUTBOUND_ALLOW_PRIVATE_ENV, type OutboundPolicy, outboundPolicyFromEnv } from './policy-from-env';
export { type HopSender, type PinnedHop, pinnedLookup, sendPinned } from './pinned-request';
export { createSafeFetch, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT_MS, type SafeFetch, type SafeFetchInit, safeFetch } from './safe-fetch';
export { type ResolvedAddress, type Resolver, systemResolver, vetHost } from './vet-host';
export { type FailureWording, isOutboundRefusal, type OutboundFailure, outboundFailure } from './outbound-failure';
export { textWithinBudget } from './bounded-body';
