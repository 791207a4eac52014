import { useEffect, useMemo } from 'react';

import { useAppDispatch } from '../../core/hooks';
import type { ChatMessage } from './chatApi';
import { MARK_READ_DELAY_MS } from './chatRules';
import { unreadFromOther } from './chatSlice';
import { markRead } from './chatThunks';

/**
 * Spec §4: unread messages from staff or the bot are marked read 1 s after they are in view (the widget open,
 * its list at the end); a change in what is unread starts the second again.
 */
export function useMarkRead(messages: readonly ChatMessage[], visible: boolean): void {
  const dispatch = useAppDispatch();
  const unread = useMemo(() => unreadFromOther(messages), [messages]);
  const key = unread.join(',');
  useEffect(() => {
    if (!visible || key === '') return;
    const timer = setTimeout(() => void dispatch(markRead(key.split(','))), MARK_READ_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dispatch, visible, key]);
}
