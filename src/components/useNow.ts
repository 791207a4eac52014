import { useEffect, useState } from 'react';

/** The current time, renewed every `every` ms (relative times and day limits stay true while a page is open). */
export function useNow(every = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}
