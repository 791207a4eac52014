import { buildTestApp, type TestApp } from './helper';
import { startOpnFake, type OpnFake } from './fakes/opn-fake';

/**
 * A test app built as an operator runs Opn Payments (PAYMENT_GATEWAY=opn and its settings in the environment, which
 * the deposits plugin reads), listening, so that the contract fake's deliveries reach /api/webhooks/opn over real
 * HTTP and the adapter calls the fake over real HTTP. close() stops both and puts the environment back.
 */
export async function startOpnApp(): Promise<{ t: TestApp; fake: OpnFake; close(): Promise<void> }> {
  const fake = await startOpnFake();
  const env = { PAYMENT_GATEWAY: 'opn', OPN_SECRET_KEY: fake.secretKey, OPN_WEBHOOK_SECRET: fake.webhookSecret, OPN_BASE_URL: fake.url, PAYMENT_GATEWAY_TIMEOUT_MS: '300' };
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  const restore = () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  let t: TestApp;
  try {
    t = await buildTestApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    fake.webhookUrl = `${address}/api/webhooks/opn`;
  } catch (e) {
    await fake.close();
    restore();
    throw e;
  }
  return {
    t,
    fake,
    async close() {
      await t.close();
      await fake.close();
      restore();
    },
  };
}
