/**
 * React's commits and the scheduler priority each was rendered at, read through the hook React DevTools use: the
 * development build of react-dom calls it on every commit. setup.ts imports this first, since react-dom looks for
 * the hook once, when it loads.
 */
export const Priority = { immediate: 1, userBlocking: 2, normal: 3, low: 4, idle: 5 } as const;

let recorder: number[] | null = null;

(globalThis as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: object }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  isDisabled: false,
  renderers: new Map(),
  inject: () => 1,
  checkDCE: () => undefined,
  onScheduleFiberRoot: () => undefined,
  onCommitFiberUnmount: () => undefined,
  onPostCommitFiberRoot: () => undefined,
  onCommitFiberRoot: (_renderer: number, _root: unknown, priority: number | undefined) => recorder?.push(priority ?? 0),
};

/**
 * Records the priority of every commit from now until `stop`: a synchronous render (a store's change read through
 * `useSyncExternalStore`, a discrete event) commits at `immediate`, a transition at `normal`.
 */
export function recordCommits(): { priorities: number[]; stop: () => void } {
  const priorities: number[] = [];
  recorder = priorities;
  return { priorities, stop: () => void (recorder = null) };
}
