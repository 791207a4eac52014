import type { ProviderCall } from '../../lib/request-context';

/** The SMS adapter: one text message to one phone. Rejects when the message was not accepted for delivery. */
export interface SmsSender {
  send(phone: string, text: string, call?: ProviderCall): Promise<void>;
}

/**
 * An OTP service that makes, texts and checks the code itself (ThaiBulkSMS OTP, docs/providers/thaibulksms.md).
 * The OTP service keeps its own row, token, reference, send limits and tries (docs/accounts.md "OTP"); the
 * provider's token is stored beside them and the code is checked by asking the provider.
 * - `request` texts a code to the phone (the provider's own template and language). Rejects with SmsSendError
 *   when no code was sent, or may have been (`maybeSent`: a timeout).
 * - `verify` never rejects: `ok`, `invalid` (wrong code), `expired` (the provider will not check this token any
 *   more), or `unavailable` (no definite answer: down, timed out, refused our account).
 */
export interface OtpProvider {
  readonly name: string;
  request(phone: string, call?: ProviderCall): Promise<{ providerToken: string; ref?: string }>;
  verify(providerToken: string, pin: string, call?: ProviderCall): Promise<OtpCheck>;
}

export type OtpCheck = 'ok' | 'invalid' | 'expired' | 'unavailable';

/** Thrown by an adapter that could not hand the message over; the caller answers OTP_SEND_FAIL. */
export class SmsSendError extends Error {
  /** True when the message may still have gone out (a timed-out request): the send slot stays used. */
  readonly maybeSent: boolean;
  constructor(message = 'sms not sent', opts: { maybeSent?: boolean } = {}) {
    super(message);
    this.name = 'SmsSendError';
    this.maybeSent = opts.maybeSent ?? false;
  }
}
