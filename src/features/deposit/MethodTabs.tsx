import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface MethodTab<K extends string> {
  key: K;
  label: string;
}

interface MethodTabsProps<K extends string> {
  label: string;
  tabs: MethodTab<K>[];
  selected: K;
  onSelect(key: K): void;
  children: ReactNode;
}

/** WAI-ARIA tabs: one tab stop, arrow keys and Home/End move between tabs, the panel follows. */
export function MethodTabs<K extends string>({ label, tabs, selected, onSelect, children }: MethodTabsProps<K>) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (key: string) => `${base}-tab-${key}`;
  const panelId = `${base}-panel`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((tab) => tab.key === selected);
    const next =
      event.key === 'ArrowRight' ? (at + 1) % tabs.length
      : event.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? tabs.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next].key);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(tabs[next].key))}`)?.focus();
  };

  return (
    <>
      <div ref={list} role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            id={tabId(tab.key)}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={tab.key === selected}
            aria-controls={panelId}
            tabIndex={tab.key === selected ? 0 : -1}
            onClick={() => onSelect(tab.key)}
            data-testid={`tab-${tab.key}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(selected)} className="tabs__panel" tabIndex={0}>
        {children}
      </div>
    </>
  );
}
