import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, loggerOptions, redactUrl } from './app';
import { freshDb, testConfig, type TestDb } from './test/support/helper';

const SECRETS = {
  password: 'Pa55word-NEVER-LOGGED',
  oldPassword: 'old-pass-NEVER-LOGGED',
  newPassword: 'new-pass-NEVER-LOGGED',
  otpCode: '918273',
  token: 'eyJhbGciOiJIUzI1NiJ9.NEVER-LOGGED.sig',
  gamePassword: 'GamePassNEVERLOGGED',
  signature: 'sha256=deadbeefNEVERLOGGED',
  launchToken: 'launch-token-NEVER-LOGGED',
  slipSig: 'slipsigNEVERLOGGED0123',
};

let db: TestDb;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  db = await freshDb();
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  // The production logger options, writing to memory instead of stdout.
  app = await buildApp(testConfig(db.dataDir, { LOG_LEVEL: 'info' }), { database: db, logger: { ...loggerOptions('info'), stream } });
  // A careless handler that logs everything it was given, as a future route might.
  app.post('/api/test/echo', async (req) => {
    req.log.info({ body: req.body, headers: req.headers, req }, 'echo');
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.dispose();
});

test('passwords, tokens, OTP codes, signatures and URL secrets never reach the log', async () => {
  await app.inject({
    method: 'POST',
    url: '/api/test/echo',
    headers: { authorization: `Bearer ${SECRETS.token}`, 'x-signature': SECRETS.signature },
    payload: { username: '0812345678', password: SECRETS.password, oldPassword: SECRETS.oldPassword, newPassword: SECRETS.newPassword, otpCode: SECRETS.otpCode },
  });
  await app.inject({ method: 'GET', url: `/api/autoLogin/pg/demo_user/${SECRETS.gamePassword}` });
  await app.inject({ method: 'GET', url: `/api/lookup/info?token=${SECRETS.token}` });
  await app.inject({ method: 'GET', url: `/sim/games/pg/play?t=${SECRETS.launchToken}` });
  await app.inject({ method: 'GET', url: `/api/statement/slip/image/1?p=1&exp=1&sig=${SECRETS.slipSig}` });

  const log = lines.join('');
  expect(log).toContain('"msg":"echo"'); // the handler did log
  expect(log).toContain('0812345678'); // non-secret fields stay useful
  expect(log).toContain('/api/autoLogin/pg/demo_user/[Redacted]');
  for (const secret of Object.values(SECRETS)) expect(log).not.toContain(secret);
});

test('redactUrl masks only the secret parts', () => {
  expect(redactUrl('/api/autoLogin/betflix/u1/p%40ss?x=1')).toBe('/api/autoLogin/betflix/u1/[Redacted]?x=1');
  expect(redactUrl('/api/autoLogin/pg/u1')).toBe('/api/autoLogin/pg/u1');
  expect(redactUrl('/api/chat/media/Zm9vYmFyYmF6cXV4MTIzNA.png')).toBe('/api/chat/media/[Redacted].png');
  expect(redactUrl('/api/chat/history')).toBe('/api/chat/history');
  expect(redactUrl('/api/x?a=1&password=p&b=2')).toBe('/api/x?a=1&password=[Redacted]&b=2');
  expect(redactUrl('/api/lookup/banks')).toBe('/api/lookup/banks');
  // Issue 39: the game launch token and the slip link's signature.
  expect(redactUrl('/sim/games/pg/play?t=launch-token-NEVER-LOGGED')).toBe('/sim/games/pg/play?t=[Redacted]');
  expect(redactUrl('/api/statement/slip/image/7?p=3&exp=1767225600&sig=abcdef0123')).toBe('/api/statement/slip/image/7?p=3&exp=1767225600&sig=[Redacted]');
  expect(redactUrl('/api/x?at=1&tt=2')).toBe('/api/x?at=1&tt=2');
});
