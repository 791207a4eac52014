import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/**
 * One polite live region for the console: new messages and list changes are read out without moving the focus.
 * The message list itself is not live, so loading a page of history is not read aloud.
 */
const Context = createContext<(text: string) => void>(() => undefined);

export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const toggle = useRef(false);
  const announce = useCallback((next: string) => {
    // The same sentence twice must be read twice: alternate a trailing no-break space so the text changes.
    toggle.current = !toggle.current;
    setText(toggle.current ? next : `${next}\u00a0`);
  }, []);
  const value = useMemo(() => announce, [announce]);
  return (
    <Context.Provider value={value}>
      {children}
      <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="staff-announcer">
        {text}
      </div>
    </Context.Provider>
  );
}

export const useAnnounce = () => useContext(Context);
