import { MemoryTransferBook, SlipVerifierSimulator } from '.';

const transfer = {
  sendingBank: '004',
  transRef: 'REF123456',
  amountSatang: 50000,
  sender: { bankCode: 'KBANK', accountNo: '1234567890', accountName: 'SOMCHAI' },
  receiver: { bankCode: null, accountNo: null, promptPayId: '0812345678', accountName: 'OPERATOR' },
  transferredAt: new Date('2026-11-25T10:00:00Z'),
};

test('a transfer the bank made is reported with amount, sender, receiver and time', async () => {
  const book = new MemoryTransferBook();
  book.add(transfer);
  const sim = new SlipVerifierSimulator(book);
  const res = await sim.verify({ sendingBank: '004', transRef: 'REF123456' });
  expect(res).toEqual({ ok: true, transfer: { transRef: 'REF123456', amountSatang: 50000, sender: transfer.sender, receiver: transfer.receiver, transferredAt: transfer.transferredAt } });
});

test('an unknown reference, a reference from another bank, or an outage are its own failures', async () => {
  const book = new MemoryTransferBook();
  book.add(transfer);
  const sim = new SlipVerifierSimulator(book);
  expect(await sim.verify({ sendingBank: '004', transRef: 'NOPE0000' })).toEqual({ ok: false, reason: 'TRANSACTION_NOT_FOUND' });
  expect(await sim.verify({ sendingBank: '014', transRef: 'REF123456' })).toEqual({ ok: false, reason: 'BANK_MISMATCH' });
  sim.failNext = 1;
  expect(await sim.verify({ sendingBank: '004', transRef: 'REF123456' })).toEqual({ ok: false, reason: 'SERVICE_UNAVAILABLE' });
  expect((await sim.verify({ sendingBank: '004', transRef: 'REF123456' })).ok).toBe(true);
});
