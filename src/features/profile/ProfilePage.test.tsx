import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import type { ProfileView } from '../../core/accountApi';
import { initialPrefs } from '../../core/prefs';
import { formatDateTime } from '../../lib/format';
import { renderApp } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { checkPasswordChange } from './passwordRules';

const VIEW: ProfileView = {
  profile: { _id: '12', username: '0812345678', name: 'Somchai', createdAt: '2026-11-25T10:00:00.000Z' },
  bankAccount: {
    bankAccountName: 'SOMCHAI JAIDEE',
    bankAccountNo: '1234567890',
    bankCode: 'KBANK',
    currency: 'BAHT',
    bank: { nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank' },
  },
};

function profileAnswers(view: ProfileView = VIEW) {
  const auth: (string | null)[] = [];
  server.use(
    http.get('/api/account/profile', ({ request }) => {
      auth.push(request.headers.get('authorization'));
      return HttpResponse.json(view);
    }),
  );
  return auth;
}

/** A logged-in session as the store holds it (the session feature's own helper is not importable from here). */
const loggedInSession = (token: string, remember: boolean) => ({ token, remember, login: { status: 'loggedIn' as const } });
const loggedIn = (token = 'tok-old', remember = true) => ({ preloadedState: { session: loggedInSession(token, remember) } });

describe('profile screen', () => {
  it('shows name, id, created-at and the read-only account details, the number grouped 3-3-4', async () => {
    profileAnswers();
    renderApp('/user/profile', loggedIn());
    expect(await screen.findByTestId('profile-name')).toHaveTextContent('Somchai');
    expect(screen.getByTestId('page-title')).toHaveTextContent('Profile');
    expect(screen.getByTestId('profile-id')).toHaveTextContent('12');
    expect(screen.getByTestId('profile-created')).toHaveTextContent(formatDateTime('2026-11-25T10:00:00.000Z'));
    expect(screen.getByTestId('profile-created').textContent).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    // Read-only data is text (issue 12): each value follows its term, and no input is on the page.
    for (const [term, value, testId] of [
      ['Username', '0812345678', 'profile-username'],
      ['Bank account name', 'SOMCHAI JAIDEE', 'profile-bank-account-name'],
      ['Bank', 'ธนาคารกสิกรไทย', 'profile-bank-name'],
      ['Account number', '123-456-7890', 'profile-account-no'],
    ]) {
      const dd = screen.getByTestId(testId);
      expect(dd.tagName).toBe('DD');
      expect(dd).toHaveTextContent(value);
      expect(dd.previousElementSibling).toHaveTextContent(term);
    }
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    // The actions say what they do in words, not with a bare icon.
    expect(screen.getByTestId('profile-change-password')).toHaveTextContent('Change password');
    expect(screen.getByTestId('profile-edit')).toHaveTextContent('Edit profile');
    expect(screen.queryByTestId('profile-loading')).not.toBeInTheDocument();
  });

  it('shows an account number that is not exactly 10 digits as it is', async () => {
    profileAnswers({ ...VIEW, bankAccount: { ...VIEW.bankAccount!, bankAccountNo: '123456789012' } });
    renderApp('/user/profile', loggedIn());
    expect(await screen.findByTestId('profile-account-no')).toHaveTextContent(/^123456789012$/);
  });

  it('shows a loader while loading, and a failed load only hides it (no toast, no message)', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.get('/api/account/profile', async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return errorResponse('INTERNAL_SERVER_ERROR', 500);
      }),
    );
    renderApp('/user/profile', loggedIn());
    expect(await screen.findByTestId('profile-loading')).toHaveTextContent('Loading…');
    release();
    await waitFor(() => expect(screen.queryByTestId('profile-loading')).not.toBeInTheDocument());
    expect(screen.queryByTestId('profile-card')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('A server error occurred. Please try again later.')).not.toBeInTheDocument();
  });

  it('is in the player language (Lao)', async () => {
    profileAnswers();
    renderApp('/user/profile', { preloadedState: { ...loggedIn().preloadedState, prefs: { ...initialPrefs, locale: 'la' } } });
    expect(await screen.findByText('ຊື່ບັນຊີທະນາຄານ')).toBeInTheDocument();
    expect(screen.getByTestId('profile-bank-account-name')).toHaveTextContent('SOMCHAI JAIDEE');
    expect(screen.getByRole('button', { name: 'ປ່ຽນລະຫັດຜ່ານ' })).toBeInTheDocument();
  });
});

describe('change password modal', () => {
  function passwordAnswers(answer: () => Response = () => HttpResponse.json({ message: 'OK', token: 'tok-fresh' })) {
    const calls: { body: unknown; auth: string | null }[] = [];
    server.use(
      http.put('/api/account/changepwd', async ({ request }) => {
        calls.push({ body: await request.json(), auth: request.headers.get('authorization') });
        return answer();
      }),
    );
    return calls;
  }

  async function open(options: Parameters<typeof renderApp>[1] = loggedIn()) {
    profileAnswers();
    const view = renderApp('/user/profile', options);
    await view.user.click(await screen.findByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    return { ...view, dialog };
  }

  async function fill(user: ReturnType<typeof renderApp>['user'], old: string, next: string, confirm: string) {
    if (old) await user.type(screen.getByLabelText('Current password'), old);
    if (next) await user.type(screen.getByLabelText('New password'), next);
    if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
    await user.click(screen.getByTestId('password-submit'));
  }

  it.each([
    ['the current password', '', 'newpass1', 'newpass1'],
    ['the new password', 'oldpass1', '', 'newpass1'],
    ['the confirmation', 'oldpass1', 'newpass1', ''],
  ])('does nothing while %s is empty', async (_name, old, next, confirm) => {
    const calls = passwordAnswers();
    const { user, dialog } = await open();
    await fill(user, old, next, confirm);
    expect(calls).toEqual([]);
    expect(within(dialog).queryByTestId('field-error')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the passwords are not equal inline, on the confirmation field, and sends nothing', async () => {
    const calls = passwordAnswers();
    const { user } = await open();
    await fill(user, 'oldpass1', 'newpass1', 'newpass2');
    const confirm = screen.getByLabelText('Confirm new password');
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(confirm).toHaveAccessibleDescription('The new password and its confirmation are not the same.');
    expect(confirm).toHaveFocus();
    expect(calls).toEqual([]);
  });

  it('changes the password, keeps the fresh token (remember-me kept) and shows the saved alert', async () => {
    const calls = passwordAnswers();
    const { user, store, persistor } = await open({ ...loggedIn('tok-old', true), persist: true });
    await fill(user, 'oldpass1', 'newpass1', 'newpass1');
    expect(await screen.findByTestId('password-saved')).toHaveTextContent('Saved');
    expect(calls).toEqual([{ body: { oldPassword: 'oldpass1', newPassword: 'newpass1' }, auth: 'Bearer tok-old' }]);
    expect(store.getState().session).toMatchObject(loggedInSession('tok-fresh', true));
    await persistor!.flush();
    expect(JSON.parse(JSON.parse(window.localStorage.getItem('persist:token')!).token)).toBe('tok-fresh');
    expect(window.sessionStorage.getItem('persist:token')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(store.getState().modals.stack).toEqual([]);
  });

  it('keeps a tab-only session tab-only after the change', async () => {
    passwordAnswers();
    const { user, store } = await open(loggedIn('tok-old', false));
    await fill(user, 'oldpass1', 'newpass1', 'newpass1');
    await screen.findByTestId('password-saved');
    expect(store.getState().session).toEqual(loggedInSession('tok-fresh', false));
  });

  it('names the password rule under the new password and in the server refusal (PASSWORD_TOO_SHORT, issue 12)', async () => {
    passwordAnswers(() => errorResponse('PASSWORD_TOO_SHORT', 400));
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false, passwordMinLength: 8 })));
    const { user, dialog } = await open();
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('At least 8 characters'));
    await fill(user, 'oldpass1', 'short1', 'short1');
    expect(await within(dialog).findByTestId('password-failed')).toHaveTextContent('The password is too short: it needs at least 8 characters.');
  });

  it('shows the error alert with the translated error text, keeps the token, and lets the player try again', async () => {
    let fail = true;
    passwordAnswers(() => (fail ? errorResponse('WRONG_PASSWORD', 422) : HttpResponse.json({ message: 'OK', token: 'tok-fresh' })));
    const { user, store, dialog } = await open();
    await fill(user, 'wrongpass', 'newpass1', 'newpass1');
    const alert = await within(dialog).findByTestId('password-failed');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('Incorrect password.');
    expect(store.getState().session.token).toBe('tok-old');

    fail = false;
    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'oldpass1');
    expect(within(dialog).queryByTestId('password-failed')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('password-submit'));
    expect(await screen.findByTestId('password-saved')).toBeInTheDocument();
  });
});

describe('edit profile modal (PUT /api/account/profile, issue 12)', () => {
  const BANKS = [
    { code: 'SCB', nameTH: 'ธนาคารไทยพาณิชย์', nameEN: 'Siam Commercial Bank', market: 'th', englishNameOnly: false },
    { code: 'KTB', nameTH: 'ธนาคารกรุงไทย', nameEN: 'Krungthai Bank', market: 'th', englishNameOnly: true },
  ];

  function editAnswers(answer: (body: Record<string, string>) => Response = (body) => HttpResponse.json({ ...VIEW, profile: { ...VIEW.profile, name: body.name } })) {
    const calls = { puts: [] as unknown[], markets: [] as (string | null)[] };
    server.use(
      http.get('/api/lookup/banks', ({ request }) => {
        calls.markets.push(new URL(request.url).searchParams.get('market'));
        return HttpResponse.json(BANKS);
      }),
      http.put('/api/account/profile', async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        calls.puts.push(body);
        return answer(body);
      }),
    );
    return calls;
  }

  async function open() {
    profileAnswers();
    const view = renderApp('/user/profile', loggedIn());
    await view.user.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
    return { ...view, dialog };
  }

  it('opens with the current data, offers the market\'s banks plus the player\'s own, and saves the change', async () => {
    const calls = editAnswers();
    const { user, dialog, store } = await open();
    expect(within(dialog).getByLabelText('Profile name')).toHaveValue('Somchai');
    expect(within(dialog).getByLabelText('Bank account name')).toHaveValue('SOMCHAI JAIDEE');
    expect(within(dialog).getByLabelText('Account number')).toHaveValue('1234567890');
    await within(dialog).findByRole('option', { name: 'Siam Commercial Bank' });
    expect(calls.markets).toEqual(['th']);
    // KBANK is not in this lookup answer, but it is the player's bank: it stays choosable and chosen.
    expect(within(dialog).getByLabelText('Bank')).toHaveValue('KBANK');

    await user.clear(within(dialog).getByLabelText('Profile name'));
    await user.type(within(dialog).getByLabelText('Profile name'), 'Somsri');
    await user.selectOptions(within(dialog).getByLabelText('Bank'), 'SCB');
    await user.clear(within(dialog).getByLabelText('Bank account name'));
    await user.type(within(dialog).getByLabelText('Bank account name'), 'somsri  dee');
    await user.clear(within(dialog).getByLabelText('Account number'));
    await user.type(within(dialog).getByLabelText('Account number'), '987-654-3210');
    // A new bank account needs the current password (issue 39 row 6; EditProfileModal.test.tsx).
    await user.type(within(dialog).getByLabelText('Current password'), 'secret1');
    await user.click(within(dialog).getByTestId('edit-profile-submit'));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.puts).toEqual([{ name: 'Somsri', bankCode: 'SCB', bankAccountName: 'SOMSRI DEE', bankAccountNo: '9876543210', password: 'secret1' }]);
    expect(store.getState().modals.stack).toEqual([]);
  });

  it('asks for English names as soon as KTB is chosen, refuses a Thai one, and sends nothing', async () => {
    const calls = editAnswers();
    const { user, dialog } = await open();
    await within(dialog).findByRole('option', { name: 'Krungthai Bank' });
    await user.selectOptions(within(dialog).getByLabelText('Bank'), 'KTB');
    const name = within(dialog).getByLabelText('Bank account name');
    expect(name).toHaveAccessibleDescription(/Krungthai Bank takes the account name in English letters only/);
    await user.clear(name);
    await user.type(name, 'สมชาย ใจดี');
    await user.click(within(dialog).getByTestId('edit-profile-submit'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(/Bank account name must be in English only/);
    await waitFor(() => expect(name).toHaveFocus());
    expect(calls.puts).toEqual([]);
  });

  it('shows the server refusal translated in the modal and keeps it open', async () => {
    editAnswers(() => errorResponse('EXISTING_BANK', 409));
    const { user, dialog } = await open();
    await user.click(within(dialog).getByTestId('edit-profile-submit'));
    const alert = await within(dialog).findByTestId('edit-profile-failed');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('This bank account is already used by another player.');
    expect(screen.getByRole('dialog', { name: 'Edit profile' })).toBeInTheDocument();
  });
});

describe('change password rules (spec §5)', () => {
  it.each([
    [{ oldPassword: '', newPassword: 'a', confirmPassword: 'a' }, 'ignored'],
    [{ oldPassword: 'o', newPassword: '', confirmPassword: 'a' }, 'ignored'],
    [{ oldPassword: 'o', newPassword: 'a', confirmPassword: '' }, 'ignored'],
    [{ oldPassword: '', newPassword: '', confirmPassword: '' }, 'ignored'],
    [{ oldPassword: 'o', newPassword: 'a', confirmPassword: 'b' }, 'notEqual'],
    [{ oldPassword: 'o', newPassword: 'abc', confirmPassword: 'abc ' }, 'notEqual'],
    [{ oldPassword: 'o', newPassword: 'abc', confirmPassword: 'abc' }, 'send'],
  ])('%p -> %s', (values, outcome) => {
    expect(checkPasswordChange(values).outcome).toBe(outcome);
  });
});
