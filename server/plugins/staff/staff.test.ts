import { buildTestApp, type TestApp } from '../../test/helper';
import { createStaff, TEST_STAFF_PASSWORD } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/staff/login', payload: { username, password } });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/staff/me', headers: { authorization: `Bearer ${token}` } });

test('a staff member logs in and reads who they are', async () => {
  const s = await createStaff(t.app, { username: 'anna', name: 'Anna', role: 'payments' });
  const res = await login('anna', TEST_STAFF_PASSWORD);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.staff).toEqual({ id: s.id, username: 'anna', name: 'Anna', role: 'payments' });
  expect((await me(body.token)).json()).toEqual({ id: s.id, username: 'anna', name: 'Anna', role: 'payments' });
});
