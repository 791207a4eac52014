import { GiftRedeemerSimulator } from '.';

test('a voucher it issued redeems once, with its amount', async () => {
  const sim = new GiftRedeemerSimulator();
  const id = sim.issue(2500, { ownerName: 'NOK' });
  expect(id).toMatch(/^[A-Za-z0-9]{10,40}$/);
  expect(await sim.inspect(id)).toEqual({ ok: true, voucherId: id, amountSatang: 2500 });
  const first = await sim.redeem(id, '0800000001');
  expect(first).toMatchObject({ ok: true, voucherId: id, amountSatang: 2500, ownerName: 'NOK' });
  expect(await sim.redeem(id, '0800000001')).toEqual({ ok: false, reason: 'VOUCHER_OUT_OF_STOCK' });
  expect(await sim.inspect(id)).toEqual({ ok: false, reason: 'VOUCHER_OUT_OF_STOCK' });
});

test('unknown, expired and own vouchers are refused; outages on demand', async () => {
  let now = new Date('2026-11-25T00:00:00Z');
  const sim = new GiftRedeemerSimulator({ now: () => now });
  expect(await sim.redeem('doesnotexist01', '0800000001')).toEqual({ ok: false, reason: 'VOUCHER_NOT_FOUND' });
  const old = sim.issue(1000, { validForMs: 1000 });
  now = new Date(now.getTime() + 2000);
  expect(await sim.redeem(old, '0800000001')).toEqual({ ok: false, reason: 'VOUCHER_EXPIRED' });
  const own = sim.issue(1000, { ownerMobile: '0800000001' });
  expect(await sim.redeem(own, '0800000001')).toEqual({ ok: false, reason: 'CANNOT_GET_OWN_VOUCHER' });
  const v = sim.issue(1000);
  sim.failNext = 1;
  expect(await sim.redeem(v, '0800000001')).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect((await sim.redeem(v, '0800000001')).ok).toBe(true);
  expect(() => sim.issue(0)).toThrow();
});
