import type { ProviderCall } from '../../lib/request-context';

/** The SMS adapter: one text message to one phone. Rejects when the message was not accepted for delivery. */
export interface SmsSender {
  send(phone: string, text: string, call?: ProviderCall): Promise<void>;
}

/** Thrown by an adapter that could not hand the message over; the caller answers OTP_SEND_FAIL. */
export class SmsSendError extends Error {
  constructor(message = 'sms not sent') {
    super(message);
    this.name = 'SmsSendError';
  }
}
