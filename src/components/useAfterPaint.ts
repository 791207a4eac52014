import { useEffect, useState } from 'react';

/**
 * False on the first render, true from the task after the browser has painted it (a timer set in the next animation
 * frame runs once that frame is drawn). For what the first screen does not show and should not hold up: a lazy
 * part requested during the first render is one more round trip before it (docs/client.md "First screen").
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
