import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import type { ProfileView } from '../../core/accountApi';
import { formatDateTime } from '../../lib/format';
import { renderApp } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { changesBank, profileChangeErrors } from './EditProfileModal';

/**
 * Issue 39 row 6: the bank account number changed with the token alone. The edit-profile modal asks for the current
 * password when the bank or the account number changes (not for a name-only edit) and sends it with the change; the
 * profile then says until when withdrawals wait.
 */
const VIEW: ProfileView = {
  profile: { _id: '12', username: '0812345678', name: 'Somchai', createdAt: '2026-11-25T10:00:00.000Z' },
  bankAccount: {
    bankAccountName: 'SOMCHAI JAIDEE',
    bankAccountNo: '1234567890',
    bankCode: 'KBANK',
    currency: 'BAHT',
    bank: { nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank' },
    withdrawHoldUntil: null,
  },
};
const BANKS = [
  { code: 'KBANK', nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', englishNameOnly: false },
  { code: 'SCB', nameTH: 'ธนาคารไทยพาณิชย์', nameEN: 'Siam Commercial Bank', englishNameOnly: false },
];
const HOLD = '2026-12-02T10:00:00.000Z';

function serveProfile(answer: (body: Record<string, string>) => Response) {
  const puts: Record<string, string>[] = [];
  let view = VIEW;
  server.use(
    http.get('/api/account/profile', () => HttpResponse.json(view)),
    http.get('/api/lookup/banks', () => HttpResponse.json(BANKS)),
    http.put('/api/account/profile', async ({ request }) => {
      const body = (await request.json()) as Record<string, string>;
      puts.push(body);
      const res = answer(body);
      if (res.status === 200) view = (await res.clone().json()) as ProfileView;
      return res;
    }),
  );
  return puts;
}

const changed = (body: Record<string, string>) =>
  HttpResponse.json({
    ...VIEW,
    profile: { ...VIEW.profile, name: body.name },
    bankAccount: { ...VIEW.bankAccount!, bankCode: body.bankCode, bankAccountNo: body.bankAccountNo, withdrawHoldUntil: body.password ? HOLD : null },
  });

async function openModal() {
  const view = renderApp('/user/profile', { preloadedState: { session: { token: 'tok', remember: false, login: { status: 'loggedIn' } } } });
  await view.user.click(await screen.findByRole('button', { name: 'Edit profile' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
  await within(dialog).findByRole('option', { name: 'Siam Commercial Bank' });
  return { ...view, dialog };
}

describe('edit profile: the current password guards the bank data', () => {
  it('a name-only edit asks for no password and sends none', async () => {
    const puts = serveProfile(changed);
    const { user, dialog } = await openModal();
    expect(within(dialog).queryByLabelText('Current password')).not.toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Profile name'));
    await user.type(within(dialog).getByLabelText('Profile name'), 'Somsri');
    await user.click(within(dialog).getByTestId('edit-profile-submit'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts).toEqual([{ name: 'Somsri', bankCode: 'KBANK', bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '1234567890' }]);
    expect(screen.queryByTestId('profile-withdraw-hold')).not.toBeInTheDocument();
  });

  it('a new account number asks for the current password, refuses to send without it, then sends it with the change', async () => {
    const puts = serveProfile(changed);
    const { user, dialog } = await openModal();
    await user.clear(within(dialog).getByLabelText('Account number'));
    await user.type(within(dialog).getByLabelText('Account number'), '9876543210');
    const password = within(dialog).getByLabelText('Current password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(password).toHaveAccessibleDescription(/Needed to change the bank or the account number/);

    await user.click(within(dialog).getByTestId('edit-profile-submit'));
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(/Enter your current password/);
    await waitFor(() => expect(password).toHaveFocus());
    expect(puts).toEqual([]);

    await user.type(password, 'secret1');
    await user.click(within(dialog).getByTestId('edit-profile-submit'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts).toEqual([{ name: 'Somchai', bankCode: 'KBANK', bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '9876543210', password: 'secret1' }]);
    // The profile says until when withdrawals to the new account wait.
    expect(await screen.findByTestId('profile-withdraw-hold')).toHaveTextContent(`Withdrawals to this account open on ${formatDateTime(HOLD)}.`);
  });

  it('a wrong password is refused in the modal, translated, and the modal stays open', async () => {
    serveProfile(() => errorResponse('WRONG_PASSWORD', 422));
    const { user, dialog } = await openModal();
    await user.selectOptions(within(dialog).getByLabelText('Bank'), 'SCB');
    await user.type(within(dialog).getByLabelText('Current password'), 'not-mine');
    await user.click(within(dialog).getByTestId('edit-profile-submit'));
    expect(await within(dialog).findByTestId('edit-profile-failed')).toHaveTextContent('Incorrect password.');
    expect(screen.getByRole('dialog', { name: 'Edit profile' })).toBeInTheDocument();
  });

  it('going back to the registered account hides the password again', async () => {
    serveProfile(changed);
    const { user, dialog } = await openModal();
    await user.selectOptions(within(dialog).getByLabelText('Bank'), 'SCB');
    expect(within(dialog).getByLabelText('Current password')).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Bank'), 'KBANK');
    expect(within(dialog).queryByLabelText('Current password')).not.toBeInTheDocument();
  });
});

describe('the bank-change rules', () => {
  const own = { bankCode: 'KBANK', bankAccountNo: '1234567890' };
  it.each([
    [{ bankCode: 'KBANK', bankAccountNo: '1234567890' }, false],
    [{ bankCode: 'SCB', bankAccountNo: '1234567890' }, true],
    [{ bankCode: 'KBANK', bankAccountNo: '1234567891' }, true],
  ])('%p changes the bank: %s', (values, expected) => {
    expect(changesBank(values, own)).toBe(expected);
  });

  it('the password is required only with a bank change', () => {
    const values = { name: 'A', bankCode: 'SCB', bankAccountName: 'A', bankAccountNo: '1', password: '' };
    expect(profileChangeErrors(values, false, false)).toEqual({});
    expect(profileChangeErrors(values, false, true)).toEqual({ password: 'profile.passwordRequired' });
    expect(profileChangeErrors({ ...values, password: 'x' }, false, true)).toEqual({});
  });
});
