import { emptyDepositTextKey } from './availability';
import en from '../../../locales/en.json';

/** Issue 40 item 9: offline the deposit modal says "no connection", not that there are no deposit channels. */
test('offline names the connection, online the missing channels', () => {
  expect(emptyDepositTextKey(false)).toBe('deposit.offline');
  expect(emptyDepositTextKey(true)).toBe('deposit.unavailable');
  expect(en.deposit.offline).toMatch(/no connection/i);
  expect(en.deposit.offline).not.toBe(en.deposit.unavailable);
});
