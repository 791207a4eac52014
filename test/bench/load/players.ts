/**
 * The load generator of "a day of load" (docs/operations.md "A day of load"): a child process of its own (run.ts
 * forks it), so that its CPU is measured apart from the app's. Each simulated player is a session of the product's
 * own calls, as the SPA makes them: log in once, read the wallet, refresh game balances, transfer to and from the
 * game (with an Idempotency-Key), make a QR deposit that the payment gateway then pays by its signed webhook, ask
 * for a withdrawal, page the statement, check bonuses, write to the chat, and hold a socket.io connection open for
 * the live balance (every `wallet` event reloads the wallet, as src/app/useWalletPush.ts does; every (re)join too).
 *
 * Every player connects from an address of its own (127.1.x.y: all of 127/8 is the loopback on Linux), as players
 * on the internet do, so the app's per-address limits (RATE_LIMIT_PER_MINUTE's default 600, SOCKET_MAX_PER_ADDRESS)
 * stay on and each player is under them as a real one is. The gateway sends its webhooks from four addresses.
 * HTTP goes through node:http keep-alive agents, one per player (a browser's connection pool), at most 4 sockets.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { io as connect, type Socket } from 'socket.io-client';
import { signWebhook } from '../../../server/plugins/deposits/domain/webhook-signature';
import type { LoadPlan, MoneyRecord, PushStats, Sample, ToChild, ToParent } from './protocol';

const ROUTES: string[] = [];
const routeIndex = new Map<string, number>();
const routeOf = (name: string): number => {
  let i = routeIndex.get(name);
  if (i === undefined) {
    i = ROUTES.push(name) - 1;
    routeIndex.set(name, i);
  }
  return i;
};

const samples: Sample[] = [];
const money: MoneyRecord[] = [];
const notes: string[] = [];
const push: PushStats = { expected: 0, delivered: 0, coveredByRejoin: 0, drops: 0, gaps: [], notBack: 0, connectErrors: 0, events: 0 };
let windowStart = 0;
/** Requests sent again after their kept-alive connection was closed under them (see request()). */
let retried = 0;
let endAt = 0;
let stopping = false;

const send = (m: ToParent) => process.send?.(m);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
const rand = (a: number, b: number) => a + Math.random() * (b - a);
const randInt = (a: number, b: number) => Math.floor(rand(a, b + 1));

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

/** One request through `agent`, recorded as a sample of `route`. Never throws: a connection error is status 0. */
function request(agent: http.Agent, url: URL, route: string, method: string, path: string, opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string>; hangMs: number }): Promise<Answer> {
  const r = routeOf(route);
  const started = performance.now();
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve) => {
    let done = false;
    const startedAt = Date.now();
    let req: http.ClientRequest;
    const finish = (status: number, body: Record<string, unknown> | null) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      samples.push([Math.round(startedAt - windowStart), r, status, Math.round((performance.now() - started) * 10) / 10]);
      resolve({ status, body });
    };
    // No answer in 30 s: given up (status 0); after hangMs it already counts as hung (latency).
    const giveUp = setTimeout(() => {
      req.destroy(new Error('given up'));
      finish(0, null);
    }, Math.max(30_000, opts.hangMs));
    const attempt = (retry: boolean) => {
      let answered = false;
      req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> | null = null;
          try {
            body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
          } catch {
            body = null;
          }
          finish(res.statusCode ?? 0, body);
        });
        res.on('error', () => finish(0, null));
      });
      const sent = req;
      sent.on('error', (e) => {
        // A kept-alive connection the server closed as this request went out on it (a worker closing in the rolling
        // restart closes its idle connections): sent again once on a new connection, as browsers do (and Node's
        // http docs advise, `request.reusedSocket`). Counted and printed.
        if (retry && sent.reusedSocket && !answered && !done && (e as NodeJS.ErrnoException).code === 'ECONNRESET') {
          retried++;
          attempt(false);
          return;
        }
        if (!done && notes.length < 20) notes.push(`${route}: ${e.message}`);
        finish(0, null);
      });
      if (payload !== undefined) sent.write(payload);
      sent.end();
    };
    attempt(true);
  });
}

const ok = (a: Answer) => a.status >= 200 && a.status < 300;

interface Movement {
  start: number;
  end: number;
}

/** The payment gateway: pays a QR by the signed webhook, from one of its four addresses. */
function gateway(plan: LoadPlan, url: URL) {
  const agents = [2, 3, 4, 5].map((n) => new http.Agent({ keepAlive: true, maxSockets: 8, localAddress: `127.0.0.${n}` }));
  let next = 0;
  return {
    async pay(qrId: string, amountBaht: number): Promise<{ credited: boolean; start: number; end: number; eventId: string }> {
      const eventId = `evt_load_${crypto.randomBytes(8).toString('hex')}`;
      const raw = JSON.stringify({ id: eventId, type: 'qr.paid', reference: qrId, amount: amountBaht });
      const start = Date.now();
      const a = await request(agents[next++ % agents.length], url, 'POST /api/webhooks/payments', 'POST', '/api/webhooks/payments', {
        raw,
        headers: { 'x-signature': signWebhook(raw, plan.webhookSecret) },
        hangMs: plan.hangMs,
      });
      return { credited: ok(a) && a.body?.outcome === 'CREDITED', start, end: Date.now(), eventId };
    },
    close: () => agents.forEach((a) => a.destroy()),
  };
}

type Gateway = ReturnType<typeof gateway>;

/** The rooms' prefix (GET /api/chat/config), the same for everyone. */
let prefix: string | null = null;

async function session(plan: LoadPlan, url: URL, gw: Gateway, index: number, player: { id: number; phone: string }, arriveAt: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}` });
  const call = (route: string, method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    request(agent, url, route, method, path, { ...opts, hangMs: plan.hangMs });
  const movements: Movement[] = [];
  const pushes: number[] = [];
  const rejoins: number[] = [];
  let socket: Socket | null = null;
  try {
    await sleep(arriveAt - Date.now());
    const login = await call('POST /api/login', 'POST', '/api/login', { body: { username: player.phone, password: plan.password } });
    if (!ok(login)) return;
    const token = login.body?.token as string;
    const config = await call('GET /api/chat/config', 'GET', '/api/chat/config');
    prefix ??= (config.body?.PREFIX as string | null) ?? null;
    await call('GET /api/wallet', 'GET', '/api/wallet', { token });

    // The wallet reload that a push or a (re)join asks for; one at a time, one more if asked meanwhile (RTK Query's refetch).
    let reloading: Promise<void> | null = null;
    let again = false;
    const reload = (): Promise<void> => {
      if (reloading) {
        again = true;
        return reloading;
      }
      reloading = (async () => {
        do {
          again = false;
          await call('GET /api/wallet', 'GET', '/api/wallet', { token });
        } while (again && !stopping);
      })().finally(() => (reloading = null));
      return reloading;
    };

    // The live balance socket, as src/core/roomSocket.ts opens it: websocket only, join on every connection,
    // reconnect after 500 ms, also after a server-side disconnect.
    let droppedAt: number | null = null;
    let ever = false;
    if (prefix) {
      const room = `${prefix}-${player.id}`;
      const s = connect(plan.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: true,
        reconnectionDelay: 500,
        reconnectionDelayMax: 500,
        reconnectionAttempts: Infinity,
        forceNew: true,
        auth: { token },
        localAddress: `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`,
      } as Parameters<typeof connect>[1]);
      socket = s;
      s.on('wallet', () => {
        pushes.push(Date.now());
        push.events++;
        void reload();
      });
      s.on('connect', () => {
        s.emit('join', { room }, (answer: { ok?: boolean } | undefined) => {
          if (answer?.ok !== true) return;
          const joinedAt = Date.now();
          if (!ever) {
            ever = true;
            return;
          }
          rejoins.push(joinedAt);
          void reload().then(() => {
            if (droppedAt !== null) {
              push.gaps.push(Date.now() - droppedAt);
              droppedAt = null;
            }
          });
        });
      });
      s.on('disconnect', (reason: string) => {
        if (stopping) return;
        push.drops++;
        if (process.env.LOAD_DEBUG && notes.length < 60) notes.push(`drop p${player.id} at ${Date.now() - windowStart} ms: ${reason}`);
        droppedAt ??= Date.now();
        if (reason === 'io server disconnect') setTimeout(() => !stopping && !s.connected && s.connect(), 500);
      });
      s.on('connect_error', () => push.connectErrors++);
    }
    await call('GET /api/bonus/check/active', 'GET', '/api/bonus/check/active', { token });

    let activated = false;
    let inGame = 0; // baht this session moved into the game and not back
    const moved = async (route: string, path: string, body: unknown, onOk: (a: Answer) => void) => {
      const start = Date.now();
      const a = await call(route, 'POST', path, { token, body, headers: { 'idempotency-key': crypto.randomUUID() } });
      if (ok(a)) {
        movements.push({ start, end: Date.now() });
        onOk(a);
      }
    };
    const actions: [number, () => Promise<void>][] = [
      [25, async () => void (await call('GET /api/wallet', 'GET', '/api/wallet', { token }))],
      [12, async () => void (await call('GET /api/wallet/refresh/slot', 'GET', '/api/wallet/refresh/slot', { token }))],
      [
        12,
        async () => {
          if (!activated) activated = ok(await call('GET /api/wallet/activate/:game', 'GET', `/api/wallet/activate/${plan.game}`, { token }));
          const amount = randInt(10, 200);
          await moved('POST /api/wallet/transfer', '/api/wallet/transfer', { from: 'WALLET', to: plan.game, amount }, (a) => {
            inGame += amount;
            money.push({ kind: 'transfer', playerId: player.id, id: a.body?.transferId as string, direction: 'to_game', amount: amount * 100, status: a.status });
          });
        },
      ],
      [
        10,
        async () => {
          if (inGame < 10) return;
          const amount = randInt(10, inGame);
          await moved('POST /api/wallet/transfer', '/api/wallet/transfer', { from: plan.game, to: 'WALLET', amount }, (a) => {
            inGame -= amount;
            money.push({ kind: 'transfer', playerId: player.id, id: a.body?.transferId as string, direction: 'from_game', amount: amount * 100, status: a.status });
          });
        },
      ],
      [12, async () => void (await call('POST /api/statement', 'POST', '/api/statement', { token, body: { page: randInt(1, 3), limit: 10 } }))],
      [8, async () => void (await call(Math.random() < 0.5 ? 'GET /api/bonus/check/active' : 'GET /api/bonus', 'GET', Math.random() < 0.5 ? '/api/bonus/check/active' : '/api/bonus', { token }))],
      [5, async () => void (await call('POST /api/chat/send-message', 'POST', '/api/chat/send-message', { token, body: { message: `hello ${crypto.randomBytes(3).toString('hex')}`, message_type: 'text', locale: 'en' } }))],
      [3, async () => void (await call('POST /api/chat/history', 'POST', '/api/chat/history', { token, body: { limit: 10 } }))],
      [
        4,
        async () => {
          const amount = randInt(100, 500);
          const qr = await call('POST /api/qrcode/:code', 'POST', '/api/qrcode/KBANK', { token, body: { amount } });
          if (!ok(qr)) return;
          // The player scans the code and pays in the bank's app; the gateway tells us a few seconds later.
          await sleep(rand(2000, 6000));
          if (stopping) return;
          const paid = await gw.pay(qr.body?.qrcodeId as string, amount);
          if (paid.credited) {
            movements.push({ start: paid.start, end: paid.end });
            money.push({ kind: 'deposit', playerId: player.id, qrId: qr.body?.qrcodeId as string, eventId: paid.eventId, amount: amount * 100 });
          }
        },
      ],
      [
        2,
        async () => {
          const amount = randInt(100, 300);
          await moved('POST /api/wallet/withdrawAll', '/api/wallet/withdrawAll', { amount }, (a) =>
            money.push({ kind: 'withdrawal', playerId: player.id, id: a.body?.withdrawalId as string, amount: amount * 100 }),
          );
        },
      ],
    ];
    const total = actions.reduce((s, [w]) => s + w, 0);
    while (!stopping) {
      const think = Math.min(30_000, Math.max(1000, -Math.log(1 - Math.random()) * plan.thinkMeanS * 1000));
      if (Date.now() + think >= endAt) break;
      await sleep(think);
      if (stopping) break;
      let pick = Math.random() * total;
      const action = actions.find(([w]) => (pick -= w) < 0) ?? actions[0];
      await action[1]();
    }
    // The last pushes of the session's movements (a deposit is paid a few seconds after its QR).
    const lastEnd = Math.max(endAt, ...movements.map((m) => m.end));
    await sleep(lastEnd + 5000 - Date.now());
    // Back means joined again and the wallet reloaded within 2 s of the drop (a drop in the last 2 s is still on its way).
    if (droppedAt !== null && Date.now() - droppedAt > 2000) {
      push.notBack++;
      if (notes.length < 20) notes.push(`player ${player.id} not back: dropped ${Date.now() - droppedAt} ms ago, connected ${socket?.connected}, active ${socket?.active}, rejoins ${rejoins.length}`);
    }
  } finally {
    socket?.off();
    socket?.disconnect();
    agent.destroy();
    // Each movement wants a push within 5 s of its answer, or a (re)join after it started (the reload then shows it).
    for (const m of movements) {
      push.expected++;
      if (pushes.some((p) => p >= m.start && p <= m.end + 5000)) push.delivered++;
      else if (rejoins.some((j) => j >= m.start && j <= m.end + 5000)) push.coveredByRejoin++;
      else if (notes.length < 40)
        notes.push(
          `lost push p${player.id}: movement ${m.start - windowStart}..${m.end - windowStart} ms; pushes ${pushes.map((p) => p - windowStart).join(',')}; rejoins ${rejoins.map((j) => j - windowStart).join(',')}`,
        );
    }
  }
}

async function run(plan: LoadPlan): Promise<void> {
  const url = new URL(plan.url);
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  windowStart = t0 + plan.rampS * 1000;
  endAt = windowStart + plan.durationS * 1000;
  const gw = gateway(plan, url);
  const n = plan.players.length;
  const sessions = plan.players.map((p, i) => session(plan, url, gw, i, p, t0 + (plan.rampS * 1000 * i) / n));
  setTimeout(() => send({ type: 'window-start', at: windowStart }), Math.max(0, windowStart - Date.now()));
  await Promise.all(sessions);
  gw.close();
  const cpu = process.cpuUsage(cpu0);
  send({ type: 'done', routes: ROUTES, samples, money, push, retried, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: Date.now() - t0, notes });
}

process.on('message', (m: ToChild) => {
  if (m.type === 'plan') {
    run(m.plan).catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
  } else if (m.type === 'stop') {
    stopping = true;
  }
});
