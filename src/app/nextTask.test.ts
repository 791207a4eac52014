import { nextTask } from './nextTask';

test('nextTask resolves in a later task: work queued as a task before it runs first, microtasks do not wait', async () => {
  const order: string[] = [];
  setTimeout(() => order.push('task queued before'), 0);
  const done = nextTask().then(() => order.push('after nextTask'));
  void Promise.resolve().then(() => order.push('microtask'));
  await done;
  expect(order).toEqual(['microtask', 'task queued before', 'after nextTask']);
});
