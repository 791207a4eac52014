import { parse } from 'promptparse';
import { GatewayError, PaymentGatewaySimulator } from '.';

const expiresAt = () => new Date(Date.now() + 5 * 60_000);

test('WW answers a TrueMoney EMVCo payload and E2P a bill payment, each with the amount and a valid CRC', async () => {
  const sim = new PaymentGatewaySimulator();
  const ww = await sim.createQr({ channel: 'WW', reference: 'q1', amountSatang: 15000, expiresAt: expiresAt() });
  const e2p = await sim.createQr({ channel: 'E2P', reference: 'q2', amountSatang: 5025, expiresAt: expiresAt() });
  expect(parse(ww.payload, true)?.getTagValue('54')).toBe('150.00');
  expect(parse(ww.payload, true)?.getTagValue('29', '00')).toBe('A000000677010111');
  expect(parse(e2p.payload, true)?.getTagValue('54')).toBe('50.25');
  expect(parse(e2p.payload, true)?.getTagValue('30', '00')).toBe('A000000677010112');
  expect(ww.payload).not.toBe(e2p.payload);
});

test('the gateway never extends the expiry beyond its own limit', async () => {
  const sim = new PaymentGatewaySimulator({ maxLifetimeMs: 60_000 });
  const wanted = new Date(Date.now() + 10 * 60_000);
  const qr = await sim.createQr({ channel: 'WW', reference: 'q1', amountSatang: 10000, expiresAt: wanted });
  expect(qr.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
  const short = new Date(Date.now() + 1000);
  expect((await sim.createQr({ channel: 'WW', reference: 'q2', amountSatang: 10000, expiresAt: short })).expiresAt).toEqual(short);
});

test('failures on demand and by rate, and bad amounts', async () => {
  const sim = new PaymentGatewaySimulator({ failureRate: 0.5, random: () => 0.2 });
  await expect(sim.createQr({ channel: 'E2P', reference: 'q', amountSatang: 100, expiresAt: expiresAt() })).rejects.toBeInstanceOf(GatewayError);
  const ok = new PaymentGatewaySimulator();
  ok.failNext = 1;
  await expect(ok.createQr({ channel: 'E2P', reference: 'q', amountSatang: 100, expiresAt: expiresAt() })).rejects.toThrow('GATEWAY_UNAVAILABLE');
  await expect(ok.createQr({ channel: 'E2P', reference: 'q', amountSatang: 0, expiresAt: expiresAt() })).rejects.toThrow('INVALID_AMOUNT');
  await expect(ok.createQr({ channel: 'E2P', reference: 'q', amountSatang: 100, expiresAt: expiresAt() })).resolves.toHaveProperty('payload');
});
