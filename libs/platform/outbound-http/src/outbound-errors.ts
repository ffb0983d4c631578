// Messages name hosts only. Full URLs are never interpolated because they can
// carry userinfo passwords and tokens in query strings, and these errors end up
// in logs and sometimes in API responses.

/** The destination resolves to (or is) an address the outbound policy forbids. */
export class OutboundAddressRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED' as const;
  readonly host: string;
  /**
   * The offending address. Kept off the message so that echoing the message to
   * a client does not reveal how internal names resolve.
   */
  readonly address: string;

  constructor(host: string, address: string) {
    super(`Outbound request to host "${host}" refused: it resolves to a loopback, private or otherwise non-public address`);
    this.name = 'OutboundAddressRefusedError';
    this.host = host;
    this.address = address;
  }
}

/** The URL (or a redirect target) uses a scheme other than http or https. */
export class OutboundSchemeRefusedError extends Error {
  readonly code = 'OUTBOUND_SCHEME_REFUSED' as const;
  readonly scheme: string;

  constructor(scheme: string) {
    super(`Outbound request refused: scheme "${scheme}" is not allowed, only http and https`);
    this.name = 'OutboundSchemeRefusedError';
    this.scheme = scheme;
  }
}

/** A redirect chain was longer than the caller allowed. */
export class OutboundRedirectLimitError extends Error {
  readonly code = 'OUTBOUND_REDIRECT_LIMIT' as const;
  readonly host: string;
  readonly maxRedirects: number;

  constructor(host: string, maxRedirects: number) {
    super(`Outbound request to host "${host}" exceeded the limit of ${maxRedirects} redirect(s)`);
    this.name = 'OutboundRedirectLimitError';
    this.host = host;
    this.maxRedirects = maxRedirects;
  }
}
