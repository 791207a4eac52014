import { buildTestApp, type TestApp } from '../test/support/helper';
import { SETTINGS } from './seed';
import { AFTER, BEFORE, up } from './migrations/202611261610_localized_texts';

/** Migration 202611261610 (issue 12): the bilingual agreement and conditions seeded before become per-language. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const stored = async (key: string) =>
  JSON.parse((await t.db.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value) as unknown;
const write = (key: string, value: unknown) =>
  t.db.db.updateTable('settings').set({ value: JSON.stringify(value) }).where('key', '=', key).execute();

test('the documents as seeded before are replaced by the per-language ones the seed now writes', async () => {
  // The seed writes the migration's texts (db/seed.ts takes them from it): a fresh database holds them already.
  expect(await stored('conditions')).toEqual(AFTER.conditions);
  expect(await stored('agreements')).toEqual(AFTER.agreements);
  await write('conditions', BEFORE.conditions);
  await write('agreements', BEFORE.agreements);
  await up(t.db.db);
  expect(await stored('conditions')).toEqual(SETTINGS.conditions);
  expect(await stored('agreements')).toEqual(SETTINGS.agreements);
  const res = await t.app.inject({ method: 'GET', url: '/api/lookup/agreements?lang=la' });
  expect((res.json() as string[])[0]).toContain('ຂ້າພະເຈົ້າ');
});

test("an operator's own document is left as it is", async () => {
  const own = ['<p>กติกาของเรา / Our rules</p>'];
  await write('conditions', own);
  await write('agreements', SETTINGS.agreements);
  await up(t.db.db);
  expect(await stored('conditions')).toEqual(own);
  expect(await stored('agreements')).toEqual(SETTINGS.agreements);
  await write('conditions', SETTINGS.conditions);
});
