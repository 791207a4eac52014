import { useGetActiveBonusQuery } from '../app/activeBonusApi';
import { useAppSelector } from '../app/hooks';
import { selectLocale } from '../app/prefs';
import { useGetWalletQuery } from '../app/walletApi';
import { bonusLock, type BonusLock } from '../lib/bonusLock';
import { localized } from '../lib/localized';

/**
 * The active bonus's withdrawal lock (lib/bonusLock.ts) for the screens that say it before the player tries: the
 * home, the withdraw modal, the bonus and promotion modals. Null while none is active or before the answer.
 */
export function useBonusLock(): { lock: BonusLock | null; name: string; refetch: () => void } {
  const locale = useAppSelector(selectLocale);
  // Only the progress of an active bonus: with none active (most players), an answer changes nothing here and draws
  // nothing (the hydrated home must not redraw synchronously when the answer comes).
  const { progress, refetch } = useGetActiveBonusQuery(undefined, { selectFromResult: (r) => ({ progress: r.data?.status ? r.data.progress : null }) });
  // Only the wallet's own balance: what a cancel can take back (money at a game is not touched).
  const balance = useGetWalletQuery(undefined, { selectFromResult: (r) => ({ amount: r.data?.wallet.amount }) }).amount;
  const lock = bonusLock(progress ? { status: true, progress } : undefined, balance);
  const name = progress ? localized(progress.name, locale) || progress.code : '';
  return { lock, name, refetch };
}
