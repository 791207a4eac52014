/**
 * What the shared outside-service client throws (docs/providers/README.md). An adapter catches these and answers
 * its interface's "unavailable" (a slip verifier's SERVICE_UNAVAILABLE, a gateway's refusal): they never reach a
 * player as they are.
 */

/** The provider's circuit is open (too many failures lately): refused at once, nothing was sent. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: string,
    readonly retryAt: Date | null,
  ) {
    super(`${provider}: circuit open, not calling the service until ${retryAt?.toISOString() ?? 'a probe succeeds'}`);
    this.name = 'ProviderUnavailable';
  }
}

/**
 * No answer within the call's timeout (or the connection failed half way). For a call that is not idempotent the
 * outcome is unknown (`maybeApplied`): the adapter must ask the provider for the object's status before deciding.
 */
export class ProviderTimeoutError extends Error {
  constructor(
    readonly provider: string,
    readonly operation: string,
    readonly maybeApplied: boolean,
  ) {
    super(`${provider} ${operation}: timeout`);
    this.name = 'ProviderTimeoutError';
  }
}

/** The provider could not be reached (DNS, refused connection, TLS), or answered 5xx / 429 after the retries. */
export class ProviderCallError extends Error {
  constructor(
    readonly provider: string,
    readonly operation: string,
    /** The HTTP status, or null when no answer came at all. */
    readonly status: number | null,
    detail: string,
  ) {
    super(`${provider} ${operation}: ${detail}`);
    this.name = 'ProviderCallError';
  }
}
