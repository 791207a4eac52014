import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

import { api } from '../../core/api';
import { classifyError, errorCode } from '../../core/apiErrors';
import { useAppDispatch, useAppSelector, useAppStore } from '../../core/hooks';
import { selectWalletLive, selectWalletPushes } from '../../core/liveSlice';
import { depositApi, useCancelQrMutation, useCreateQrMutation } from './depositApi';
import { toastServerMessage } from './messages';
import type { QrBank } from './qrBanks';
import { BUSY_STATUSES, qrClockTicked, qrDepositOpened, REST_STATUSES, selectAnyQrShown, selectQrDeposit } from './qrSlice';

/**
 * While a QR is shown the server is asked every few seconds, so a payment made in the bank app shows here
 * (and in the wallet, through the 'Wallet' tag) well within the spec's 'about 1 minute'.
 */
export const QR_POLL_MS = 4000;
const TICK_MS = 1000;

/**
 * Whether a failed create is the server refusing it, to be shown as a toast. Not when the session ended or
 * the site is gone (spec §8: the base query already sends the player to /login or /terminated), nor when the
 * request was abandoned: the session's end resets the API, which aborts it.
 */
export function createRefusal(error: FetchBaseQueryError | SerializedError | undefined): boolean {
  if (!error) return true;
  if (!('status' in error) && error.name === 'AbortError') return false;
  return classifyError(error).kind === 'message';
}

/**
 * The side effects of the QR machines (qrSlice) while the deposit modal is open: a state check per bank on
 * open and whenever a machine asks for one, create and cancel, the 1-second countdown clock and the poll.
 */
export function useQrDeposit(banks: readonly QrBank[]) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const state = useAppSelector(selectQrDeposit);
  const anyShown = useAppSelector(selectAnyQrShown);
  const [now, setNow] = useState(() => Date.now());
  const [createQr] = useCreateQrMutation();
  const [cancelQr] = useCancelQrMutation();
  // Requests start only from a state that takes them (two quick presses must not create two QRs).
  const statusOf = useCallback((bank: QrBank) => selectQrDeposit(store.getState())[bank].machine.status, [store]);

  const check = useCallback(
    (bank: QrBank) => {
      if (BUSY_STATUSES.has(statusOf(bank))) return;
      // The answer reaches the machine through the endpoint's own actions; nothing is kept subscribed.
      dispatch(depositApi.endpoints.getQr.initiate(bank, { subscribe: false, forceRefetch: true }));
    },
    [dispatch, statusOf],
  );

  useEffect(() => {
    dispatch(qrDepositOpened());
  }, [dispatch]);

  // Check each bank when it is stale: on open, after another bank's create, after a refused cancel.
  useEffect(() => {
    for (const bank of banks) if (state[bank].stale && !BUSY_STATUSES.has(state[bank].machine.status)) check(bank);
  }, [banks, state, check]);

  // The countdown clock ticks only while a QR is shown; at 00:00 the machine hides it. A layout effect, so
  // a QR never paints with the time of an older tick.
  useLayoutEffect(() => {
    if (!anyShown) return;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      dispatch(qrClockTicked({ now: at }));
    };
    tick();
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, [anyShown, dispatch]);

  // The poll: the bank of each shown QR, and the wallet (whatever shows it refetches through the tag). Only
  // while the live-balance socket is down: when it is up, a payment arrives as a `wallet` event instead.
  const shownBanks = banks.filter((bank) => state[bank].machine.status === 'shown').join(',');
  const live = useAppSelector(selectWalletLive);
  const pushes = useAppSelector(selectWalletPushes);
  useEffect(() => {
    if (shownBanks === '' || live) return;
    const timer = setInterval(() => {
      for (const bank of shownBanks.split(',') as QrBank[]) check(bank);
      dispatch(api.util.invalidateTags(['Wallet']));
    }, QR_POLL_MS);
    return () => clearInterval(timer);
  }, [shownBanks, live, check, dispatch]);

  // A change pushed to this player (useWalletPush): a shown QR may be the one just paid, and any QR's money may have
  // gone to staff (paid late, after a cancel) or been decided by them (issue 40). Every bank not busy checks.
  const seenPushes = useRef(pushes);
  useEffect(() => {
    if (pushes === seenPushes.current) return;
    seenPushes.current = pushes;
    for (const bank of banks) check(bank);
  }, [pushes, banks, check]);

  // A paid QR is money in the wallet: reload the wallet and the statement, once per QR.
  const credited = useRef(new Set<string>());
  useEffect(() => {
    for (const bank of banks) {
      const machine = state[bank].machine;
      if (machine.status === 'paid' && !credited.current.has(machine.qrcodeId)) {
        credited.current.add(machine.qrcodeId);
        dispatch(api.util.invalidateTags(['Wallet', 'Statement']));
      }
    }
  }, [banks, state, dispatch]);

  const create = useCallback(
    async (bank: QrBank, amount: number) => {
      if (!REST_STATUSES.has(statusOf(bank))) return;
      const result = await createQr({ bankCode: bank, amount });
      // Spec §8: hasQrcode false shows the server's message as a red toast (refusals carry it too).
      if ('data' in result && result.data) {
        if (!result.data.hasQrcode) toastServerMessage(result.data.message);
      } else if ('error' in result && createRefusal(result.error)) {
        toastServerMessage(errorCode(result.error));
      }
    },
    [createQr, statusOf],
  );

  const cancel = useCallback(
    async (bank: QrBank, qrcodeId: string) => {
      if (statusOf(bank) !== 'shown') return;
      await cancelQr({ bankCode: bank, qrcodeId });
    },
    [cancelQr, statusOf],
  );

  return { state, now, create, cancel };
}
