import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18n } from '../../core/i18n';
import { Toaster } from '../Toaster';
import { startUpdatePrompt } from './swClient';

/** A stand-in for workbox-window's Workbox: records listeners and calls, fires events on demand. */
const fake = {
  listeners: new Map<string, ((event: { isUpdate?: boolean }) => void)[]>(),
  messageSkipWaiting: jest.fn(),
  register: jest.fn(() => Promise.resolve(undefined)),
  update: jest.fn(() => Promise.resolve()),
  scriptUrl: '',
  fire(type: string, event: { isUpdate?: boolean } = {}) {
    act(() => (this.listeners.get(type) ?? []).forEach((listener) => listener(event)));
  },
};
jest.mock('workbox-window', () => ({
  Workbox: jest.fn().mockImplementation((url: string) => {
    fake.scriptUrl = url;
    return {
      addEventListener: (type: string, listener: (event: { isUpdate?: boolean }) => void) =>
        fake.listeners.set(type, [...(fake.listeners.get(type) ?? []), listener]),
      messageSkipWaiting: fake.messageSkipWaiting,
      register: fake.register,
      update: fake.update,
    };
  }),
}));

beforeEach(() => {
  fake.listeners.clear();
  jest.clearAllMocks();
});

test('a waiting worker (workbox-window reports it on re-registering) brings "New version available" with Reload; Reload lets it in, and its control reloads the page', async () => {
  const reload = jest.fn();
  render(<Toaster />);
  act(() => startUpdatePrompt({ controlledByNew: false }, reload));
  expect(fake.scriptUrl).toBe('/sw.js');
  expect(fake.register).toHaveBeenCalledTimes(1);

  fake.fire('waiting');
  const alert = await screen.findByText('New version available');
  const button = screen.getByRole('button', { name: 'Reload' });
  expect(alert).toBeVisible();
  expect(fake.messageSkipWaiting).not.toHaveBeenCalled();

  await userEvent.click(button);
  expect(fake.messageSkipWaiting).toHaveBeenCalledTimes(1);
  expect(reload).not.toHaveBeenCalled(); // not before the new worker controls the page

  fake.fire('controlling', { isUpdate: true });
  expect(reload).toHaveBeenCalledTimes(1);
  await waitFor(() => expect(screen.queryByText('New version available')).toBeNull()); // Reload closed the toast
});

test('the prompt speaks the player\'s language', async () => {
  await act(() => i18n.changeLanguage('th'));
  render(<Toaster />);
  act(() => startUpdatePrompt({ controlledByNew: false }, jest.fn()));
  fake.fire('waiting');
  expect(await screen.findByRole('button', { name: 'โหลดใหม่' })).toBeInTheDocument();
  expect(screen.getByText('มีเวอร์ชันใหม่')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'โหลดใหม่' }));
  await waitFor(() => expect(screen.queryByText('มีเวอร์ชันใหม่')).toBeNull());
});

test('a new worker another tab let in is offered at once; its Reload only reloads', async () => {
  const reload = jest.fn();
  render(<Toaster />);
  act(() => startUpdatePrompt({ controlledByNew: true }, reload));
  await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
  expect(reload).toHaveBeenCalledTimes(1);
  expect(fake.messageSkipWaiting).not.toHaveBeenCalled();
  await waitFor(() => expect(screen.queryByText('New version available')).toBeNull());
});
