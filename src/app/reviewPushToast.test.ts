import { i18n } from '../core/i18n';
import { reviewPushToast } from './useWalletPush';

/** Issue 40: a payment sent to or decided by staff is told to the player as a toast, whatever screen is open. */
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options) as string;
const pushed = (status: string) => ({ reason: 'review', review: { status, kind: 'AMOUNT_MISMATCH', amount: 25, ref: 'D-2612-4821' } });

describe('reviewPushToast', () => {
  it('tells what arrived, that staff check it, and the reference; then the decision', () => {
    expect(reviewPushToast('review', pushed('OPEN'), 'en', t)).toEqual({ variant: 'info', message: '25.00 baht arrived and is being checked by our staff. Reference D-2612-4821.' });
    expect(reviewPushToast('review', pushed('APPROVED'), 'en', t)).toEqual({ variant: 'success', message: '25.00 baht was added to your wallet after checking. Reference D-2612-4821.' });
    expect(reviewPushToast('review', pushed('REJECTED'), 'en', t)?.variant).toBe('error');
  });

  it('says nothing for a ledger push, a join, or a notice it does not know', () => {
    expect(reviewPushToast('deposit', pushed('OPEN'), 'en', t)).toBeNull();
    expect(reviewPushToast(undefined, undefined, 'en', t)).toBeNull();
    expect(reviewPushToast('review', { reason: 'review' }, 'en', t)).toBeNull();
    expect(reviewPushToast('review', pushed('SOMETHING'), 'en', t)).toBeNull();
  });
});
