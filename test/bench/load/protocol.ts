/**
 * What the load phase's parent (run.ts) and its load generator (players.ts, a child process of its own so that its
 * CPU is measured apart from the app's) tell each other over the IPC channel.
 */

/** The generator's orders: who plays, against which app, and when the measured window starts and ends. */
export interface LoadPlan {
  url: string;
  players: { id: number; phone: string }[];
  password: string;
  game: string;
  webhookSecret: string;
  /** Arrivals (each a POST /api/login) are spread over the first rampS seconds; the measured window follows. */
  rampS: number;
  durationS: number;
  /** Mean think time between a player's actions (exponential, clipped to 1..30 s). */
  thinkMeanS: number;
  /** Requests with no answer after this are counted as hung (and given up at 30 s). */
  hangMs: number;
}

/** One request: [ms since the measured window's start (negative in the ramp), route index, status (0: connection error or given up), latency ms]. */
export type Sample = [number, number, number, number];

/** A 2xx money answer, checked against the database after the run. */
export type MoneyRecord =
  | { kind: 'transfer'; playerId: number; id: string; direction: 'to_game' | 'from_game'; amount: number; status: number }
  | { kind: 'deposit'; playerId: number; qrId: string; eventId: string; amount: number }
  | { kind: 'withdrawal'; playerId: number; id: string; amount: number };

export interface PushStats {
  /** Money movements of a player with a socket open (each 2xx money answer, and each credited webhook). */
  expected: number;
  /** ... followed by a `wallet` event within 5 s of the answer. */
  delivered: number;
  /** ... without an event, but the socket (re)joined after it started and the client reloaded the wallet (the SPA's rule). */
  coveredByRejoin: number;
  /** Socket drops (server side closes, e.g. the rolling restart) and their reconnect + reload gap, ms. */
  drops: number;
  gaps: number[];
  /** Drops not back (joined and reloaded) by the end of the run. */
  notBack: number;
  connectErrors: number;
  events: number;
}

export type ToParent =
  | { type: 'arrived'; at: number }
  | { type: 'window-start'; at: number }
  | { type: 'done'; routes: string[]; samples: Sample[]; money: MoneyRecord[]; push: PushStats; retried: number; cpuMs: number; wallMs: number; notes: string[] };

export type ToChild = { type: 'plan'; plan: LoadPlan } | { type: 'stop' };
