import fp from 'fastify-plugin';
import sms, { type SmsPluginOptions } from '../../adapters/sms';
import otp from '../otp';
import { loadAccountRules, type AccountRules } from './rules';
import { accountRoutes } from './routes';
import { AccountsService } from './service';

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

/** Accounts, session and OTP (issue 3): the SMS adapter, the OTP routes and the account routes. */
export default fp<AccountsPluginOptions>(
  async (app, opts) => {
    const rules = opts.rules ?? loadAccountRules();
    app.decorate('accountRules', rules);
    await app.register(sms, opts.sms ?? {});
    await app.register(otp, { rules });
    await app.register(accountRoutes, { service: new AccountsService(app, rules) });
  },
  { name: 'accounts', dependencies: ['db', 'auth'] },
);
