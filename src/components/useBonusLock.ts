import { useGetActiveBonusQuery } from '../core/activeBonusApi';
import { useAppSelector } from '../core/hooks';
import { selectLocale } from '../core/prefs';
import { useGetWalletQuery } from '../core/walletApi';
import { bonusLock, type BonusLock } from '../lib/bonusLock';
import { localized } from '../lib/localized';

/**
 * The active bonus's withdrawal lock (lib/bonusLock.ts) for the screens that say it before the player tries: the
 * home, the withdraw modal, the bonus and promotion modals. Null while none is active or before the answer.
 */
/** The wallet's balance plus every opened game's, in baht (undefined before the wallet's answer). */
function totalHeld(wallet: { wallet: { amount: number }; slots: { isActive: boolean; amount: number }[] } | undefined): number | undefined {
  if (!wallet) return undefined;
  const satang = wallet.slots.reduce((sum, slot) => sum + (slot.isActive ? Math.round(slot.amount * 100) : 0), Math.round(wallet.wallet.amount * 100));
  return satang / 100;
}

export function useBonusLock(): { lock: BonusLock | null; name: string; refetch: () => void } {
  const locale = useAppSelector(selectLocale);
  // Only the progress of an active bonus: with none active (most players), an answer changes nothing here and draws
  // nothing (the hydrated home must not redraw synchronously when the answer comes).
  const { progress, refetch } = useGetActiveBonusQuery(undefined, { selectFromResult: (r) => ({ progress: r.data?.status ? r.data.progress : null }) });
  // The wallet and the games together: a cancel takes the bonus back from both (docs/bonus.md "Taking the bonus back").
  const balance = useGetWalletQuery(undefined, { selectFromResult: (r) => ({ amount: totalHeld(r.data) }) }).amount;
  const lock = bonusLock(progress ? { status: true, progress } : undefined, balance);
  const name = progress ? localized(progress.name, locale) || progress.code : '';
  return { lock, name, refetch };
}
