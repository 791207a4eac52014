/**
 * Resolves in a new task of the event loop, so the work after it runs as a task of its own: the browser can
 * paint and answer input in between, and no single task of the boot blocks for long (total blocking time,
 * docs/client.md "First screen"). A timer of 0 ms; browsers clamp it only when timers nest five deep.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
