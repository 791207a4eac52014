import { io } from 'socket.io-client';

/** What the console needs of a socket.io client socket; tests pass a fake with the same shape. */
export interface StaffSocket {
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener?: (...args: any[]) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
  /** False once socket.io gave up on its own (a refused handshake, or the server closed the socket). */
  readonly active: boolean;
}

export type ConnectStaffSocket = (token: string) => StaffSocket;

/**
 * The /staff namespace on this origin (chat contract "Socket.io"): websocket only, retried every 500 ms for as
 * long as the console is open.
 */
export const connectStaffSocket: ConnectStaffSocket = (token) =>
  io('/staff', {
    transports: ['websocket'],
    auth: { token },
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: 500,
    reconnectionDelayMax: 500,
    randomizationFactor: 0,
  });
