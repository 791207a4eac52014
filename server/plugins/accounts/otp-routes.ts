import fp from 'fastify-plugin';
import type { AccountRules } from './rules';
import * as s from './schemas';
import { scopeOf } from '../../lib/request-context';
import { OtpService, smsLanguage } from './otp-service';

/** POST /api/otp/send and /api/otp/verify (spec §7). Needs the sms decoration. */
export default fp<{ rules: AccountRules; service?: OtpService }>(
  async (app, opts) => {
    // The accounts plugin passes its own: the forgotten password's routes send codes through the same one.
    const service = opts.service ?? new OtpService(app, opts.rules);

    app.post<{ Body: { phoneNumber: string; lang?: string } }>(
      '/api/otp/send',
      { schema: { body: s.otpSendBody, response: { 200: s.otpSendReply, ...s.errorResponses } } },
      async (req) => service.send(req.body.phoneNumber, smsLanguage(req.body.lang, req.headers['accept-language'], app.config.market), scopeOf(req)),
    );

    app.post<{ Body: { otpToken: string; otpCode: string } }>(
      '/api/otp/verify',
      { schema: { body: s.otpVerifyBody, response: { 200: s.otpVerifyReply, ...s.errorResponses } } },
      async (req) => service.verify(req.body.otpToken, req.body.otpCode, scopeOf(req).call),
    );
  },
  { name: 'otp', dependencies: ['db', 'sms'] },
);
