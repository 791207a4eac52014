import { AppError } from '../../errors';

/**
 * A provider's definite "no" to a call that is not a transfer (unknown game or account, wrong password, bad
 * cursor). It is an AppError so a route that lets it through answers `{ message: CODE }` with 422; transfers
 * report their definite failures as `{ status: 'failed' }` instead, and unknown outcomes as ProviderTimeoutError.
 */
export class ProviderRejectedError extends AppError {
  constructor(code: 'NO_GAME' | 'SLOT_NO_ACCOUNT' | 'WRONG_PASSWORD' | 'BAD_CURSOR') {
    super(422, code);
    this.name = 'ProviderRejectedError';
  }
}
