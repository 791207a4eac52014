import { isNavigationHandled, NEVER_HANDLED_PREFIXES } from './swRules';

test.each(['/', '/login', '/user/home', '/register?code=PR12', '/howto', '/apiary', '/media-kit', '/staffing', '/demos'])(
  'the worker answers a navigation to %s (network, else the offline page)',
  (url) => expect(isNavigationHandled(url)).toBe(true),
);

test.each([
  '/api',
  '/api/wallet',
  '/api?x=1',
  '/demo/bank',
  '/sim/pg',
  '/socket.io/?EIO=4',
  '/media/howto/wallet.webm',
  '/healthz',
  '/staff',
  '/staff/',
  '/staff/conversations/12?status=closed',
  '/staff?next=1',
])('the worker leaves a navigation to %s to the browser', (url) => expect(isNavigationHandled(url)).toBe(false));

test('the server paths the worker leaves alone include every server prefix and the staff console', () => {
  expect([...NEVER_HANDLED_PREFIXES].sort()).toEqual(['/api', '/demo', '/healthz', '/media', '/metrics', '/readyz', '/sim', '/socket.io', '/staff']);
});
