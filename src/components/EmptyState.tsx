import type { ReactNode } from 'react';
import './looks.css';

/** An empty tray: the picture of "nothing here yet", drawn in the brand's colours. */
function EmptyTray() {
  return (
    <svg className="empty-state__art" viewBox="0 0 96 72" width="96" height="72" aria-hidden="true" focusable="false">
      <ellipse cx="48" cy="64" rx="36" ry="5" fill="#e3e9e6" />
      <path d="M18 34 28 12h40l10 22v20a4 4 0 0 1-4 4H22a4 4 0 0 1-4-4z" fill="#fff" stroke="#9fb5ab" strokeWidth="2.5" strokeLinejoin="round" />
      <path d="M18 34h18l4 8h16l4-8h18" fill="none" stroke="#9fb5ab" strokeWidth="2.5" strokeLinejoin="round" />
      <path d="M38 22h20M42 28h12" stroke="#0b6e4f" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

/** Where a list is empty: a picture, a line saying so, and optionally what to do (a button or link). */
export function EmptyState({ text, children, testId }: { text: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="empty-state" data-testid={testId}>
      <EmptyTray />
      <p className="empty-state__text">{text}</p>
      {children}
    </div>
  );
}
