import { createDb, type Database } from '../db';
import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { createLease, type Lease } from './lease';

/**
 * Leases of the jobs that run once across processes (server/jobs/lease.ts), on the engine under test: one holder at
 * a time, handed over on release and on expiry, and one winner among many racing for it.
 */

let db: TestDb;
const leases: Lease[] = [];
const extra: Database[] = [];
const lease = (...args: Parameters<typeof createLease> extends [unknown, ...infer R] ? R : never) => {
  const l = createLease(db.db, ...args);
  leases.push(l);
  return l;
};

/** Waits until `check` holds (checked every 10 ms), failing after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const rowOf = (name: string) => db.db.selectFrom('job_leases').selectAll().where('name', '=', name).executeTakeFirst();

beforeEach(async () => {
  db = await freshDb();
});
afterEach(async () => {
  for (const l of leases.splice(0)) await l.stop();
  for (const d of extra.splice(0)) await d.destroy();
  await db.dispose();
});

test('two leases on one job: exactly one holds, and renewing keeps it', async () => {
  const a = lease('job', { autoRenew: false, holder: 'a' });
  const b = lease('job', { autoRenew: false, holder: 'b' });
  expect(await a.tryAcquire()).toBe(true);
  expect(await b.tryAcquire()).toBe(false);
  expect([a.held(), b.held()]).toEqual([true, false]);
  const first = (await rowOf('job'))!;
  expect(first.holder).toBe('a');
  // A renewal moves the expiry on; the other still cannot take it.
  await until(() => Date.now() > Date.parse(first.expires_at) - 30_000 + 5);
  expect(await a.tryAcquire()).toBe(true);
  expect((await rowOf('job'))!.expires_at > first.expires_at).toBe(true);
  expect(await b.tryAcquire()).toBe(false);
  // Another job's lease is independent.
  const c = lease('other-job', { autoRenew: false, holder: 'c' });
  expect(await c.tryAcquire()).toBe(true);
});

test('a release hands the lease over at once, and the old holder learns it lost it', async () => {
  const changes: boolean[] = [];
  const a = lease('job', { autoRenew: false, holder: 'a', onChange: (h) => changes.push(h) });
  const b = lease('job', { autoRenew: false, holder: 'b' });
  expect(await a.tryAcquire()).toBe(true);
  await a.release();
  expect(a.held()).toBe(false);
  expect(await rowOf('job')).toBeUndefined();
  expect(await b.tryAcquire()).toBe(true);
  // a renewal that finds it taken by another holder is not held
  expect(await a.tryAcquire()).toBe(false);
  expect(changes).toEqual([true, false]);
  expect((await rowOf('job'))!.holder).toBe('b');
});

test('a holder that stops renewing (a crash) loses the lease when it expires, not before', async () => {
  const ttlMs = 400;
  const a = lease('job', { autoRenew: false, holder: 'a', ttlMs, renewMs: 100 });
  const b = lease('job', { autoRenew: false, holder: 'b', ttlMs, renewMs: 100 });
  const before = Date.now();
  expect(await a.tryAcquire()).toBe(true);
  const after = Date.now();
  expect(await b.tryAcquire()).toBe(false);
  await until(() => b.tryAcquire());
  // Taken over only once a's expiry (written between before and after, + ttl) had passed.
  expect(Date.now()).toBeGreaterThanOrEqual(before + ttlMs);
  expect(a.held()).toBe(false); // its own expiry passed too
  expect(Date.now() - after).toBeLessThan(ttlMs + 2000);
  expect(await a.tryAcquire()).toBe(false);
  expect((await rowOf('job'))!.holder).toBe('b');
});

test('a renewal that finds another holder in the row marks the lease not held', async () => {
  const changes: boolean[] = [];
  const a = lease('job', { autoRenew: false, holder: 'a', onChange: (h) => changes.push(h) });
  expect(await a.tryAcquire()).toBe(true);
  // Another process took it (say a's clock ran late and it looked expired there).
  await db.db.updateTable('job_leases').set({ holder: 'intruder', expires_at: new Date(Date.now() + 60_000).toISOString() }).where('name', '=', 'job').execute();
  expect(await a.tryAcquire()).toBe(false);
  expect(a.held()).toBe(false);
  expect(changes).toEqual([true, false]);
  // Its release leaves the other holder's row alone.
  await a.release();
  expect((await rowOf('job'))!.holder).toBe('intruder');
});

test('ten leases racing for a free job, and then for an expired one: one winner each time', async () => {
  // Several connections, as several processes have (PostgreSQL: the pool's; SQLite: the file opened again). On
  // SQLite without group commit: a group-commit connection holds the write lock until the end of its turn, and in one
  // thread another connection's busy wait would block that turn (separate processes each have their own thread).
  let dbs = [db.db];
  if (testEngine() === 'sqlite') {
    dbs = [];
    for (let i = 0; i < 4; i++) {
      const d = createDb({ databaseUrl: null, dataDir: db.dataDir, groupCommit: false });
      extra.push(d);
      dbs.push(d.db);
    }
  }
  const racers = Array.from({ length: 10 }, (_, i) => {
    const l = createLease(dbs[i % dbs.length], 'race', { autoRenew: false, holder: `r${i}`, ttlMs: 300, renewMs: 100 });
    leases.push(l);
    return l;
  });
  const first = await Promise.all(racers.map((l) => l.tryAcquire()));
  expect(first.filter(Boolean)).toHaveLength(1);
  const winner = racers[first.indexOf(true)];
  expect((await rowOf('race'))!.holder).toBe(winner.holder);
  expect(racers.filter((l) => l.held())).toEqual([winner]);

  await until(() => !winner.held());
  await until(async () => Date.parse((await rowOf('race'))!.expires_at) < Date.now());
  const second = await Promise.all(racers.map((l) => l.tryAcquire()));
  expect(second.filter(Boolean)).toHaveLength(1);
  expect((await rowOf('race'))!.holder).toBe(racers[second.indexOf(true)].holder);
});

test('with the timer: the holder keeps it past its ttl, and on stop another process takes it at its next tick', async () => {
  const ttlMs = 1500;
  const changes: string[] = [];
  const a = lease('job', { holder: 'a', ttlMs, renewMs: 100, onChange: (h) => changes.push(`a:${h}`) });
  await until(() => a.held());
  const b = lease('job', { holder: 'b', ttlMs, renewMs: 100, onChange: (h) => changes.push(`b:${h}`) });
  const since = Date.now();
  // Past a's first expiry it still holds it (renewed), and b never had it.
  await until(() => Date.now() - since > ttlMs + 300);
  expect([a.held(), b.held()]).toEqual([true, false]);
  await a.stop();
  expect(a.held()).toBe(false);
  const stoppedAt = Date.now();
  await until(() => b.held());
  // Handed over by the release (b's next tick, every 100 ms), well before a's last expiry would have passed.
  expect(Date.now() - stoppedAt).toBeLessThan(ttlMs - 500);
  expect(changes).toEqual(['a:true', 'a:false', 'b:true']);
  // A stopped lease never takes it again.
  expect(await a.tryAcquire()).toBe(false);
});

test('refuses a renewal period that is not below the ttl', () => {
  expect(() => createLease(db.db, 'job', { ttlMs: 100, renewMs: 100 })).toThrow(/renewMs/);
});
