import fp from 'fastify-plugin';
import sms, { type SmsPluginOptions } from '../../adapters/sms';
import otp from './otp-routes';
import { OtpService } from './otp-service';
import { loadAccountRules, type AccountRules } from './rules';
import { RecoveryService } from './recovery';
import { recoveryRoutes } from './recovery-routes';
import { accountRoutes } from './routes';
import { AccountsService } from './service';

/** Accounts' public surface: the phone rule (back office), the account rules and guess limits (staff, lookups), the bank view (wallet). */
export { checkPhone, INVALID_USER_INFO } from './validation';
export { DEFAULT_RULES, loadAccountRules, type AccountRules } from './rules';
export { clearGuesses, reserveGuess } from './repository';
export { bankAccountView } from './schemas';

declare module 'fastify' {
  interface FastifyInstance {
    /** The account rules in force (the lookups name the password rule from it). */
    accountRules: AccountRules;
  }
}

export interface AccountsPluginOptions {
  /** Defaults come from the environment (see rules.ts). */
  rules?: AccountRules;
  sms?: SmsPluginOptions;
}

/** Accounts, session and OTP (issue 3): the SMS adapter, the OTP routes, the account routes and the forgotten password's. */
export default fp<AccountsPluginOptions>(
  async (app, opts) => {
    const rules = opts.rules ?? loadAccountRules();
    app.decorate('accountRules', rules);
    await app.register(sms, opts.sms ?? {});
    // One OTP service for the registration's codes and the forgotten password's (they share the per-phone limits).
    const otpService = new OtpService(app, rules);
    await app.register(otp, { rules, service: otpService });
    await app.register(accountRoutes, { service: new AccountsService(app, rules) });
    await app.register(recoveryRoutes, { service: new RecoveryService(app, rules, otpService) });
    // Reset SMS go out after their answer: none is cut off by a closing database.
    app.addHook('onClose', () => otpService.settled());
  },
  { name: 'accounts', dependencies: ['db', 'auth'] },
);
