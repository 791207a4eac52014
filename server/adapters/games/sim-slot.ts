import crypto from 'node:crypto';

/**
 * The simulator's slot: three reels, one line. A round pays the bet times a whole multiplier, so wins are
 * exact in satang. The base table pays back exactly the bet on average (0.30 x 2 + 0.06 x 5 + 0.005 x 20 = 1);
 * every win chance is scaled by (1 - houseEdge), so the return to player is 1 - houseEdge.
 */
const PAYTABLE: ReadonlyArray<{ multiplier: number; chance: number; symbol: string }> = [
  { multiplier: 20, chance: 0.005, symbol: '7' },
  { multiplier: 5, chance: 0.06, symbol: 'BAR' },
  { multiplier: 2, chance: 0.3, symbol: 'CHERRY' },
];
const SYMBOLS = ['7', 'BAR', 'CHERRY', 'BELL', 'LEMON'];

export interface SpinOutcome {
  multiplier: number;
  /** Three symbols; all three alike exactly when the round wins. */
  symbols: [string, string, string];
}

/** Uniform in [0, 1) from the OS CSPRNG: the outcome of a money round must not be predictable. */
export const cryptoRandom = (): number => crypto.randomInt(0, 2 ** 48 - 1) / (2 ** 48 - 1);

export function spin(houseEdge: number, random: () => number = cryptoRandom): SpinOutcome {
  const r = random();
  let acc = 0;
  for (const line of PAYTABLE) {
    acc += line.chance * (1 - houseEdge);
    if (r < acc) return { multiplier: line.multiplier, symbols: [line.symbol, line.symbol, line.symbol] };
  }
  // A loss shows three symbols that are not all alike.
  const pick = () => SYMBOLS[Math.floor(random() * SYMBOLS.length) % SYMBOLS.length];
  const a = pick();
  const b = pick();
  let c = pick();
  if (a === b && b === c) c = SYMBOLS[(SYMBOLS.indexOf(c) + 1) % SYMBOLS.length];
  return { multiplier: 0, symbols: [a, b, c] };
}

/** The expected payback per unit staked for a given house edge (documented and tested). */
export const returnToPlayer = (houseEdge: number): number =>
  PAYTABLE.reduce((s, l) => s + l.chance * (1 - houseEdge) * l.multiplier, 0);
