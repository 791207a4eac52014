import { useMatches } from 'react-router-dom';

import type { RouteHandle } from '../routeHandle';

/** Whether the current page wants the top offset (spec §2: /contact has none, /user/contact has it). */
export function useTopOffset(): boolean {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.topOffset !== undefined) return handle.topOffset;
  }
  return true;
}
