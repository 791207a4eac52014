import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

import { fetchMe, SESSION_ENDED_CODES } from '../staffApi';
import { useStaffDispatch } from '../store';
import type { ConversationSummary, StaffMessagingEvent } from '../types';
import type { ConnectStaffSocket, StaffSocket } from './socket';

export type LiveStatus = 'connecting' | 'connected' | 'offline';

interface LiveEvents {
  conversation: ConversationSummary;
  messaging: StaffMessagingEvent;
}
type LiveEventName = keyof LiveEvents;
type Listener<E extends LiveEventName> = (data: LiveEvents[E]) => void;

interface LiveApi {
  status: LiveStatus;
  /** Counts connections after the first: pages reload what they show when it changes (events may have been missed). */
  reconnects: number;
  subscribe: <E extends LiveEventName>(event: E, listener: Listener<E>) => () => void;
}

const Context = createContext<LiveApi | null>(null);

/** How long to wait before a new handshake when socket.io itself stopped retrying. */
export const RETRY_MS = 500;

/**
 * One /staff socket for the signed-in console; pages subscribe to its `conversation` and `messaging` events.
 * A refused handshake or a server-side disconnect stops socket.io's own retries: the session is checked
 * (an ended one signs the console out through the API layer) and the socket tries again.
 */
export function LiveProvider({ token, connect, children }: { token: string; connect: ConnectStaffSocket; children: ReactNode }) {
  const dispatch = useStaffDispatch();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [reconnects, setReconnects] = useState(0);
  const listeners = useRef(new Map<LiveEventName, Set<(data: unknown) => void>>());

  useEffect(() => {
    const socket: StaffSocket = connect(token);
    let connectedOnce = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let closed = false;
    const emit = (event: LiveEventName) => (data: unknown) => listeners.current.get(event)?.forEach((l) => l(data));
    const onConversation = emit('conversation');
    const onMessaging = emit('messaging');
    const retryLater = () => {
      if (retry || closed) return;
      retry = setTimeout(() => {
        retry = null;
        if (closed) return;
        dispatch(fetchMe()).unwrap().then(
          () => !closed && socket.connect(),
          // an ended session signs out (api layer); anything else: try again later
          (e: { code?: string }) => !closed && !SESSION_ENDED_CODES.has(e?.code ?? '') && retryLater(),
        );
      }, RETRY_MS);
    };
    const onConnect = () => {
      setStatus('connected');
      if (connectedOnce) setReconnects((n) => n + 1);
      connectedOnce = true;
    };
    const onDisconnect = () => {
      setStatus('offline');
      if (!socket.active) retryLater();
    };
    const onConnectError = () => {
      setStatus((s) => (s === 'connecting' ? 'connecting' : 'offline'));
      if (!socket.active) retryLater();
    };
    socket.on('connect', onConnect);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onConnectError);
    socket.on('conversation', onConversation);
    socket.on('messaging', onMessaging);
    return () => {
      closed = true;
      if (retry) clearTimeout(retry);
      socket.off('connect', onConnect);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onConnectError);
      socket.off('conversation', onConversation);
      socket.off('messaging', onMessaging);
      socket.disconnect();
    };
  }, [token, connect, dispatch]);

  const subscribe = useCallback(<E extends LiveEventName>(event: E, listener: Listener<E>) => {
    const set = listeners.current.get(event) ?? new Set();
    listeners.current.set(event, set);
    const l = listener as (data: unknown) => void;
    set.add(l);
    return () => {
      set.delete(l);
    };
  }, []);
  const value = useMemo<LiveApi>(() => ({ status, reconnects, subscribe }), [status, reconnects, subscribe]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useLive(): LiveApi {
  const value = useContext(Context);
  if (!value) throw new Error('useLive outside LiveProvider');
  return value;
}

/** Calls the latest `listener` for each `event` while the component is mounted. */
export function useLiveEvent<E extends LiveEventName>(event: E, listener: Listener<E>): void {
  const { subscribe } = useLive();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribe(event, (data) => latest.current(data)), [subscribe, event]);
}
