/**
 * The bench's abuse phase (issue 39 "Proof": figures, not a timed test). From one address, while players read their
 * wallets: 300 sockets opened at once and kept open, and 40 guests, each asking for a guest id and uploading a
 * chat image of about 9.5 MB (the issue's disk-fill reproduction: 40 fresh guests stored 380 MB). Prints how many
 * sockets, guest ids and uploads were accepted and refused, and the wallet read's p99 with and without the abuse.
 * It only calls the routes and prints what it sees: the caps are the server's (docs/chat.md "Abuse limits"). The
 * abuse runs in a process of its own (this file run as a script), as another client would: in the bench's own
 * process its 9.5 MB bodies would hold up the event loop that times the wallet reads.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import type { Result } from 'autocannon';
import { PNG } from 'pngjs';
import { io as connect, type Socket } from 'socket.io-client';

/** BENCH_ABUSE_SOCKETS and BENCH_ABUSE_GUESTS change the two loads (e.g. 0 to see what the other one costs). */
export const ABUSE = {
  sockets: Number(process.env.BENCH_ABUSE_SOCKETS ?? 300),
  guests: Number(process.env.BENCH_ABUSE_GUESTS ?? 40),
  uploadBytes: 9_500_000,
};

/** A real PNG of noise (it does not compress) of about `bytes`. */
function noisePng(bytes: number): Buffer {
  const width = 1600;
  const height = Math.max(1, Math.ceil(bytes / (width * 4)));
  const png = new PNG({ width, height });
  crypto.randomFillSync(png.data);
  return PNG.sync.write(png, { filterType: 0, deflateLevel: 0 });
}

interface SocketFigures { accepted: number; refused: number }

/** Opens `n` guest sockets at once; resolves when each has connected or been refused (they stay open until close()). */
async function openSockets(url: string, guestId: string, n: number): Promise<SocketFigures & { close(): void }> {
  const sockets: Socket[] = [];
  const outcomes = await Promise.all(
    Array.from({ length: n }, () => {
      const s = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { guestId }, timeout: 20_000 });
      sockets.push(s);
      return new Promise<boolean>((resolve) => {
        s.once('connect', () => resolve(true));
        s.once('connect_error', () => resolve(false));
      });
    }),
  );
  return {
    accepted: outcomes.filter(Boolean).length,
    refused: outcomes.filter((o) => !o).length,
    close: () => sockets.forEach((s) => s.disconnect()),
  };
}

interface GuestFigures { ids: number; idsRefused: number; stored: number; storedBytes: number; refused: Record<string, number> }

/** 40 guests one after the other: each asks for an id (refused ones upload nothing) and uploads one image. */
async function guestUploads(url: string, image: Buffer): Promise<GuestFigures> {
  const f: GuestFigures = { ids: 0, idsRefused: 0, stored: 0, storedBytes: 0, refused: {} };
  const refuse = (what: string) => (f.refused[what] = (f.refused[what] ?? 0) + 1);
  for (let i = 0; i < ABUSE.guests; i++) {
    const res = await fetch(`${url}/api/chat/guest`, { method: 'POST' });
    const body = (await res.json()) as { guestId?: string; message?: string };
    if (!body.guestId) {
      f.idsRefused++;
      continue;
    }
    f.ids++;
    const form = new FormData();
    form.append('guestId', body.guestId);
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo.png');
    try {
      const up = await fetch(`${url}/api/chat/upload-image`, { method: 'POST', body: form });
      const answer = (await up.json()) as { path?: string; message?: string };
      if (up.ok && answer.path) {
        f.stored++;
        f.storedBytes += image.length;
      } else refuse(`${up.status} ${answer.message ?? ''}`.trim());
    } catch (e) {
      refuse(`network ${(e as Error).message}`);
    }
  }
  return f;
}

interface Figures { sockets: SocketFigures | null; guests: GuestFigures; imageBytes: number }

/** The abuser, run as a script: `node --import tsx test/bench/abuse.ts <url> <seconds>`; prints its figures as JSON. */
async function abuse(url: string, holdMs: number): Promise<Figures> {
  const image = noisePng(ABUSE.uploadBytes);
  const probe = await fetch(`${url}/api/chat/guest`, { method: 'POST' });
  const { guestId } = (await probe.json()) as { guestId?: string };
  const started = Date.now();
  const [sockets, guests] = await Promise.all([guestId && ABUSE.sockets ? openSockets(url, guestId, ABUSE.sockets) : null, guestUploads(url, image)]);
  // The sockets stay open through the reads.
  await new Promise((r) => setTimeout(r, Math.max(0, holdMs - (Date.now() - started))));
  sockets?.close();
  return { sockets: sockets && { accepted: sockets.accepted, refused: sockets.refused }, guests, imageBytes: image.length };
}

function runAbuser(url: string, holdMs: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, url, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`the abuser exited ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as Figures);
      } catch (e) {
        reject(e);
      }
    });
  });
}

/**
 * The phase: `read()` is one wallet-read load (autocannon, `seconds` long). It runs once alone, then again while the
 * sockets and the guests' uploads come from the same address (another process).
 */
export async function abusePhase(url: string, engine: string, seconds: number, read: () => Promise<Result>): Promise<string[]> {
  const quiet = await read();
  const [busy, figures] = await Promise.all([read(), runAbuser(url, seconds * 1000)]);
  const s = figures.sockets;
  const g = figures.guests;
  const image = { length: figures.imageBytes };
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const refusals = g && Object.keys(g.refused).length ? Object.entries(g.refused).map(([k, v]) => `${v} x ${k}`).join(', ') : 'none';
  return [
    `abuse from one address (${engine}): ${ABUSE.sockets} sockets at once -> ${s ? `${s.accepted} accepted, ${s.refused} refused` : 'not run (no guest id for them)'}; ` +
      `${ABUSE.guests} guests (one more id was asked for the sockets) -> ${g ? `${g.ids} ids issued, ${g.idsRefused} refused` : 'n/a'}; ` +
      `uploads of ${mb(image.length)} MB -> ${g ? `${g.stored} stored (${mb(g.storedBytes)} MB), refused: ${refusals}` : 'n/a'}`,
    `  GET /api/wallet meanwhile: p50 ${busy.latency.p50} ms, p99 ${busy.latency.p99} ms, errors ${busy.errors + busy.non2xx} ` +
      `(alone just before: p50 ${quiet.latency.p50} ms, p99 ${quiet.latency.p99} ms)`,
  ];
}

if (require.main === module) {
  abuse(process.argv[2], Number(process.argv[3] || 10_000)).then(
    (f) => {
      console.log(JSON.stringify(f));
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
