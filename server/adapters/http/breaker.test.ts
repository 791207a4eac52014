import { CircuitBreaker, circuitGauge, circuitsOf } from './breaker';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

test('opens after N consecutive failures within the window, refuses during the cool-down, then lets one probe through', () => {
  const c = clock();
  const changes: string[] = [];
  const b = new CircuitBreaker('p', { failureThreshold: 3, windowMs: 10_000, coolDownMs: 5_000, now: c.now, onChange: (s) => changes.push(s) });
  for (let i = 0; i < 2; i++) {
    expect(b.allow()).toBe(true);
    b.failure('timeout');
  }
  expect(b.state).toBe('closed');
  expect(b.allow()).toBe(true);
  b.failure('timeout');
  expect(b.state).toBe('open');
  expect(b.allow()).toBe(false);
  expect(b.snapshot()).toMatchObject({ provider: 'p', state: 'open', lastFailure: 'timeout', retryAt: new Date(c.now() + 5_000).toISOString() });
  c.advance(4_999);
  expect(b.allow()).toBe(false);
  c.advance(1);
  expect(b.state).toBe('half-open');
  expect(b.allow()).toBe(true); // the probe
  expect(b.allow()).toBe(false); // only one at a time
  b.success();
  expect(b.state).toBe('closed');
  expect(b.allow()).toBe(true);
  expect(changes).toEqual(['open', 'half-open', 'closed']);
});

test('a failed probe opens the circuit for another cool-down', () => {
  const c = clock();
  const b = new CircuitBreaker('p', { failureThreshold: 1, coolDownMs: 1_000, now: c.now });
  b.allow();
  b.failure();
  c.advance(1_000);
  expect(b.allow()).toBe(true);
  b.failure();
  expect(b.state).toBe('open');
  c.advance(999);
  expect(b.allow()).toBe(false);
  c.advance(1);
  expect(b.allow()).toBe(true);
});

test('failures spread wider than the window, or broken by a success, do not open it', () => {
  const c = clock();
  const b = new CircuitBreaker('p', { failureThreshold: 3, windowMs: 1_000, now: c.now });
  b.failure();
  b.failure();
  c.advance(1_001);
  b.failure(); // the first two left the window
  expect(b.state).toBe('closed');
  b.failure();
  b.success();
  b.failure();
  b.failure();
  expect(b.state).toBe('closed');
  b.failure();
  expect(b.state).toBe('open');
});

test('the gauge follows the state, and the registry is per owner', () => {
  const values: number[] = [];
  const gauge = { set: (_l: { provider: string }, v: number) => void values.push(v) };
  const c = clock();
  const b = new CircuitBreaker('easyslip', { failureThreshold: 1, coolDownMs: 10, now: c.now, onChange: circuitGauge(gauge, 'easyslip') });
  b.failure();
  c.advance(10);
  void b.state;
  b.allow();
  b.success();
  expect(values).toEqual([0, 1, 1, 0]);
  const app1 = {};
  const app2 = {};
  circuitsOf(app1).add(b);
  expect(circuitsOf(app1).snapshot()).toMatchObject([{ provider: 'easyslip', state: 'closed' }]);
  expect(circuitsOf(app2).snapshot()).toEqual([]);
});
