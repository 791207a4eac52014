/**
 * The figures of "a day of load" (docs/operations.md "A day of load"): requests per second, p50/p99/max by route,
 * errors, socket pushes delivered against expected, the money check and the ledger audit, each process's CPU and
 * memory; per fault window (before / during / after) the answers by status, latency and hung requests.
 */
import type { PushStats, Sample } from './protocol';

export const P99_GOAL_MS = 200;

export interface RouteFigure {
  route: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** p99 of the window without the rolling restart's stretch (from the SIGHUP to 5 s after it is done). */
  p99Steady: number;
  max: number;
  errors: number;
}

export interface ProcessFigure {
  role: string;
  pid: number;
  /** CPU over the measured window (ms), and as a share of one core. */
  cpuMs: number;
  cpuShare: number;
  rssMb: number;
  maxRssMb: number;
}

export interface WindowFigure {
  name: string;
  fromS: number;
  toS: number;
  byStatus: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  hung: number;
}

export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const isError = (status: number) => status === 0 || status >= 400;

/** By route, over the samples whose start is within [fromMs, toMs) (the measured window); errors over all samples. */
export function routeFigures(routes: string[], samples: Sample[], fromMs: number, toMs: number, restart: [number, number] | null = null): RouteFigure[] {
  const seconds = (toMs - fromMs) / 1000;
  const out: RouteFigure[] = [];
  routes.forEach((route, i) => {
    const all = samples.filter((s) => s[1] === i);
    const inWindow = all.filter((s) => s[0] >= fromMs && s[0] < toMs);
    const lat = (inWindow.length ? inWindow : all).map((s) => s[3]).sort((a, b) => a - b);
    const steady = (inWindow.length ? inWindow : all)
      .filter((s) => !restart || s[0] < restart[0] || s[0] >= restart[1])
      .map((s) => s[3])
      .sort((a, b) => a - b);
    out.push({
      route,
      count: inWindow.length,
      perSecond: inWindow.length / seconds,
      p50: quantile(lat, 0.5),
      p99: quantile(lat, 0.99),
      p99Steady: quantile(steady, 0.99),
      max: lat.length ? lat[lat.length - 1] : 0,
      errors: all.filter((s) => isError(s[2])).length,
    });
  });
  return out.sort((a, b) => b.count - a.count);
}

export function errorsByRouteAndStatus(routes: string[], samples: Sample[]): string[] {
  const n = new Map<string, number>();
  for (const s of samples) if (isError(s[2])) n.set(`${routes[s[1]]} ${s[2] || 'no answer'}`, (n.get(`${routes[s[1]]} ${s[2] || 'no answer'}`) ?? 0) + 1);
  return [...n].map(([k, v]) => `${k}: ${v}`);
}

export function windowFigure(name: string, samples: Sample[], fromMs: number, toMs: number, hangMs: number): WindowFigure {
  const w = samples.filter((s) => s[0] >= fromMs && s[0] < toMs);
  const byStatus: Record<string, number> = {};
  for (const s of w) byStatus[s[2] || 'no answer'] = (byStatus[s[2] || 'no answer'] ?? 0) + 1;
  const lat = w.map((s) => s[3]).sort((a, b) => a - b);
  return { name, fromS: fromMs / 1000, toS: toMs / 1000, byStatus, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), max: lat[lat.length - 1] ?? 0, hung: w.filter((s) => s[3] >= hangMs || s[2] === 0).length };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function routeTable(figures: RouteFigure[]): string[] {
  const w = Math.max(...figures.map((f) => f.route.length), 5);
  const lines = [`${'route'.padEnd(w)}  ${'req/s'.padStart(7)}  ${'count'.padStart(7)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(8)}  ${'max ms'.padStart(7)}  ${'p99 outside the restart'.padStart(23)}  errors`];
  for (const f of figures) {
    lines.push(
      `${f.route.padEnd(w)}  ${fmt(f.perSecond, 1).padStart(7)}  ${String(f.count).padStart(7)}  ${fmt(f.p50, 1).padStart(7)}  ${fmt(f.p99, 1).padStart(8)}  ${fmt(f.max, 0).padStart(7)}  ${fmt(f.p99Steady, 1).padStart(23)}  ${f.errors}${f.p99 >= P99_GOAL_MS ? '  (p99 over the goal)' : ''}`,
    );
  }
  return lines;
}

export function pushLine(p: PushStats): string {
  const lost = p.expected - p.delivered - p.coveredByRejoin;
  const maxGap = p.gaps.length ? Math.max(...p.gaps) : 0;
  return (
    `socket pushes: ${p.expected} money movements of connected players, ${p.delivered} followed by a wallet event within 5 s, ${p.coveredByRejoin} covered by a rejoin + reload, ${lost} lost; ` +
    `${p.events} events in all; ${p.drops} socket drops, reconnect + reload gap max ${maxGap} ms (goal < 2000 ms), ${p.notBack} not back by the end; ${p.connectErrors} connect errors`
  );
}

export function processTable(procs: ProcessFigure[]): string[] {
  return procs.map(
    (p) => `${p.role.padEnd(26)} pid ${String(p.pid).padEnd(8)} CPU ${fmt(p.cpuMs / 1000, 1).padStart(6)} s = ${fmt(p.cpuShare * 100, 0).padStart(3)} % of a core; RSS ${fmt(p.rssMb, 0)} MB (max ${fmt(p.maxRssMb, 0)} MB)`,
  );
}

export interface GrowthPoint {
  players: number;
  durationS: number;
  perSecond: number;
  maxP99: number;
  worstRoute: string;
  maxP99Steady: number;
  worstSteadyRoute: string;
  transferP99: number;
  walletP99: number;
  appCpuPerRequestMs: number;
  appCpuShare: number;
  errors: number;
}

export function growthTable(points: GrowthPoint[]): string[] {
  const lines = ['players  window  req/s  GET /api/wallet p99  transfer p99  worst p99 (route)                        worst p99 outside the restart            app CPU/request  app CPU (of 2 cores)  errors'];
  for (const g of points) {
    lines.push(
      `${String(g.players).padStart(7)}  ${`${g.durationS} s`.padStart(6)}  ${fmt(g.perSecond, 0).padStart(5)}  ${`${fmt(g.walletP99, 1)} ms`.padStart(19)}  ${`${fmt(g.transferP99, 1)} ms`.padStart(12)}  ${`${fmt(g.maxP99, 1)} ms (${g.worstRoute})`.padEnd(40)} ${`${fmt(g.maxP99Steady, 1)} ms (${g.worstSteadyRoute})`.padEnd(40)} ${`${fmt(g.appCpuPerRequestMs, 2)} ms`.padStart(15)}  ${`${fmt(g.appCpuShare * 100, 0)} %`.padStart(20)}  ${g.errors}`,
    );
  }
  return lines;
}
