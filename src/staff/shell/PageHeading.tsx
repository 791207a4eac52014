import { useEffect, useRef, type ReactNode } from 'react';

/** A page's h1; it takes the focus when the page opens, so a screen reader starts there after navigation. */
export function PageHeading({ children, className }: { children: ReactNode; className?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
