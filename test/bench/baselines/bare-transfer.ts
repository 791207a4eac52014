/**
 * Baseline for the money path (issue 13): bare Fastify and better-sqlite3 with the app's durability settings
 * (WAL, synchronous=FULL), one transaction per transfer: debit a wallet, credit a game account, write one journal
 * row, commit. What a transfer costs on this disk with nothing else in the way. argv[2] port, argv[3] a directory.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const PLAYERS = 50;
const db = new Database(path.join(process.argv[3], 'bare.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`
  CREATE TABLE accounts (player INTEGER NOT NULL, kind TEXT NOT NULL, balance INTEGER NOT NULL, PRIMARY KEY (player, kind));
  CREATE TABLE journal (id INTEGER PRIMARY KEY, player INTEGER NOT NULL, amount INTEGER NOT NULL, created_at TEXT NOT NULL);
`);
const insert = db.prepare('INSERT INTO accounts (player, kind, balance) VALUES (?, ?, ?)');
db.transaction(() => {
  for (let p = 1; p <= PLAYERS; p++) {
    insert.run(p, 'wallet', 1_000_000);
    insert.run(p, 'game', 0);
  }
})();

const debit = db.prepare("UPDATE accounts SET balance = balance - ? WHERE player = ? AND kind = 'wallet' AND balance >= ?");
const credit = db.prepare("UPDATE accounts SET balance = balance + ? WHERE player = ? AND kind = 'game'");
const journal = db.prepare('INSERT INTO journal (player, amount, created_at) VALUES (?, ?, ?)');
const transfer = db.transaction((player: number, amount: number) => {
  if (debit.run(amount, player, amount).changes !== 1) return false;
  credit.run(amount, player);
  journal.run(player, amount, new Date().toISOString());
  return true;
});

const app = Fastify({ logger: false });
app.post<{ Body: { player: number; amount: number } }>('/transfer', async (req, reply) => {
  const ok = transfer(req.body.player, req.body.amount);
  if (!ok) return reply.status(422).send({ message: 'MONEY_NOT_ENOUGH' });
  return { status: 'SUCCESS' };
});
app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' }).then(() => console.log('listening'));
