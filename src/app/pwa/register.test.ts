import { registrationPlan, updateCheckDue, UPDATE_CHECK_INTERVAL_MS, watchServiceWorker } from './register';

/** Fakes of the browser's worker objects: enough for watchServiceWorker, driven by the test. */
class FakeTarget {
  private listeners = new Map<string, (() => void)[]>();
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    (this.listeners.get(type) ?? []).forEach((listener) => listener());
  }
}
class FakeWorker extends FakeTarget {
  constructor(public state: string) {
    super();
  }
  become(state: string) {
    this.state = state;
    this.emit('statechange');
  }
}
class FakeRegistration extends FakeTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  update = jest.fn(() => Promise.resolve());
}
class FakeContainer extends FakeTarget {
  registration = new FakeRegistration();
  constructor(public controller: object | null) {
    super();
  }
  register = jest.fn(() => Promise.resolve(this.registration));
}

async function watch(controller: object | null, setUp: (r: FakeRegistration) => void = () => undefined) {
  const container = new FakeContainer(controller);
  setUp(container.registration);
  const startUpdatePrompt = jest.fn();
  const loadPrompt = jest.fn(() => Promise.resolve({ startUpdatePrompt }));
  let clock = 0;
  await watchServiceWorker(container as unknown as ServiceWorkerContainer, loadPrompt, () => clock);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { container, loadPrompt, startUpdatePrompt, settle, advance: (ms: number) => (clock += ms) };
}

test('registers /sw.js for the whole site', async () => {
  const { container } = await watch(null);
  expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
});

test('the first install loads no prompt: nothing older controlled the page', async () => {
  const { container, loadPrompt, settle } = await watch(null);
  const worker = new FakeWorker('installing');
  container.registration.installing = worker;
  container.registration.emit('updatefound');
  worker.become('installed');
  worker.become('activated');
  container.controller = {};
  container.emit('controllerchange'); // clients.claim()
  await settle();
  expect(loadPrompt).not.toHaveBeenCalled();
});

test('a new version installed while a worker controls the page loads the prompt (workbox-window) once', async () => {
  const { container, loadPrompt, startUpdatePrompt, settle } = await watch({});
  const worker = new FakeWorker('installing');
  container.registration.installing = worker;
  container.registration.emit('updatefound');
  await settle();
  expect(loadPrompt).not.toHaveBeenCalled(); // still installing
  worker.become('installed');
  worker.emit('statechange');
  await settle();
  expect(loadPrompt).toHaveBeenCalledTimes(1);
  expect(startUpdatePrompt).toHaveBeenCalledWith({ controlledByNew: false });
});

test('a version already waiting when the page opens loads the prompt at once', async () => {
  const { startUpdatePrompt, settle } = await watch({}, (r) => (r.waiting = new FakeWorker('installed')));
  await settle();
  expect(startUpdatePrompt).toHaveBeenCalledWith({ controlledByNew: false });
});

test('a new worker taking over from an older one (another tab) loads the prompt, told the page is already controlled', async () => {
  const { container, startUpdatePrompt, settle } = await watch({});
  container.controller = {};
  container.emit('controllerchange');
  await settle();
  expect(startUpdatePrompt).toHaveBeenCalledWith({ controlledByNew: true });
});

test('a prompt chunk that fails to load (offline) is tried again at the next event', async () => {
  const container = new FakeContainer({});
  const startUpdatePrompt = jest.fn();
  const loadPrompt = jest.fn().mockRejectedValueOnce(new Error('chunk')).mockResolvedValue({ startUpdatePrompt });
  await watchServiceWorker(container as unknown as ServiceWorkerContainer, loadPrompt);
  const worker = new FakeWorker('installed');
  container.registration.waiting = worker;
  container.registration.installing = worker;
  container.registration.emit('updatefound');
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(startUpdatePrompt).not.toHaveBeenCalled();
  container.emit('controllerchange');
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(loadPrompt).toHaveBeenCalledTimes(2);
  expect(startUpdatePrompt).toHaveBeenCalledTimes(1);
});

test('an open tab coming back into view checks for a new version, at most hourly', async () => {
  const { container, advance } = await watch({});
  const visible = () => document.dispatchEvent(new Event('visibilitychange'));
  visible();
  expect(container.registration.update).not.toHaveBeenCalled();
  advance(UPDATE_CHECK_INTERVAL_MS);
  visible();
  visible();
  expect(container.registration.update).toHaveBeenCalledTimes(1);
  expect(updateCheckDue(0, UPDATE_CHECK_INTERVAL_MS - 1)).toBe(false);
  expect(UPDATE_CHECK_INTERVAL_MS).toBe(3_600_000);
});

describe('when the worker is registered', () => {
  test('only in production builds with service worker support', () => {
    expect(registrationPlan({ production: false, supported: true, loaded: true })).toBe('never');
    expect(registrationPlan({ production: true, supported: false, loaded: true })).toBe('never');
  });
  test('after load: waiting for it, or at once when it has passed', () => {
    expect(registrationPlan({ production: true, supported: true, loaded: false })).toBe('onLoad');
    expect(registrationPlan({ production: true, supported: true, loaded: true })).toBe('now');
  });
});
