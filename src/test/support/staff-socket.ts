import type { StaffSocket } from '../../staff/live/socket';

/** A stand-in for the /staff socket.io socket: the test plays the server's side with `serverEmits`. */
export class FakeStaffSocket implements StaffSocket {
  active = true;
  private readonly listeners = new Map<string, Set<(...args: any[]) => void>>();

  on(event: string, listener: (...args: any[]) => void) {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  off(event: string, listener?: (...args: any[]) => void) {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }

  connect() {
    this.active = true;
    return this;
  }

  disconnect() {
    this.active = false;
    return this;
  }

  serverEmits(event: string, ...args: unknown[]) {
    this.listeners.get(event)?.forEach((l) => l(...args));
  }
}
