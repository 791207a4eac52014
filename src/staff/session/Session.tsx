import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

import { codeOf } from '../requestId';
import { fetchMe, onStaffSessionEnded, SESSION_ENDED_CODES, staffApi, untracked } from '../staffApi';
import { useStaffDispatch } from '../store';
import type { StaffProfile } from '../types';
import { readStaffToken, storeStaffToken } from './token';

/**
 * The staff session: a stored token is checked once with GET /api/staff/me; any later call answering with an
 * ended session (401 invalid-token, UNAUTHORIZED, EXPIRED_AUTH_TOKEN) signs the console out with a note.
 */
export type StaffSession =
  | { status: 'checking' }
  | { status: 'signedOut'; ended: boolean }
  | { status: 'unreachable'; code: string }
  | { status: 'signedIn'; staff: StaffProfile; token: string };

interface SessionApi {
  session: StaffSession;
  /** Signs in, or answers the challenge of the second step (an account with a TOTP second factor). */
  signIn: (username: string, password: string) => Promise<{ challenge: string } | null>;
  /** The second step: the challenge and the 6-digit code. */
  signInTotp: (challenge: string, code: string) => Promise<void>;
  signOut: () => Promise<void>;
  recheck: () => void;
}

const Context = createContext<SessionApi | null>(null);

export function StaffSessionProvider({ children }: { children: ReactNode }) {
  const dispatch = useStaffDispatch();
  const [session, setSession] = useState<StaffSession>(() => (readStaffToken() ? { status: 'checking' } : { status: 'signedOut', ended: false }));

  const check = useCallback(() => {
    const token = readStaffToken();
    if (!token) {
      setSession({ status: 'signedOut', ended: false });
      return;
    }
    setSession({ status: 'checking' });
    dispatch(fetchMe()).unwrap().then(
      (staff) => setSession({ status: 'signedIn', staff, token }),
      (e: unknown) => {
        const code = codeOf(e);
        if (SESSION_ENDED_CODES.has(code)) {
          storeStaffToken(null);
          setSession({ status: 'signedOut', ended: false });
        } else {
          setSession({ status: 'unreachable', code });
        }
      },
    );
  }, [dispatch]);

  useEffect(() => {
    if (readStaffToken()) check();
  }, [check]);

  useEffect(() => {
    onStaffSessionEnded(() => {
      storeStaffToken(null);
      setSession((s) => (s.status === 'signedIn' ? { status: 'signedOut', ended: true } : s));
    });
    return () => onStaffSessionEnded(null);
  }, []);

  const signIn = useCallback(async (username: string, password: string) => {
    const answer = await dispatch(staffApi.endpoints.login.initiate({ username, password }, untracked)).unwrap();
    if ('challenge' in answer) return { challenge: answer.challenge };
    storeStaffToken(answer.token);
    setSession({ status: 'signedIn', staff: answer.staff, token: answer.token });
    return null;
  }, [dispatch]);

  const signInTotp = useCallback(async (challenge: string, code: string) => {
    const { token, staff } = await dispatch(staffApi.endpoints.loginTotp.initiate({ challenge, code }, untracked)).unwrap();
    storeStaffToken(token);
    setSession({ status: 'signedIn', staff, token });
  }, [dispatch]);

  const signOut = useCallback(async () => {
    try {
      await dispatch(staffApi.endpoints.logout.initiate(undefined, untracked)).unwrap();
    } catch {
      // the token is forgotten on this device whatever the server answered
    }
    storeStaffToken(null);
    setSession({ status: 'signedOut', ended: false });
  }, [dispatch]);

  const value = useMemo(() => ({ session, signIn, signInTotp, signOut, recheck: check }), [session, signIn, signInTotp, signOut, check]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useStaffSession(): SessionApi {
  const value = useContext(Context);
  if (!value) throw new Error('useStaffSession outside StaffSessionProvider');
  return value;
}
