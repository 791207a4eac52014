import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { errorResponse, server } from '../../test/support/server';
import { StaffApp } from '../StaffApp';
import { FakeStaffSocket } from '../../test/support/staff-socket';

/** The sign-in's second step (docs/staff.md "Second factor"): the 6-digit code after the password. */
const staff = { id: 9, username: 'pim', name: 'Pim Payments', role: 'payments' as const };

function start(locale = 'en') {
  window.history.pushState({}, '', '/staff');
  window.localStorage.setItem('staff-locale', locale);
  const connect = jest.fn(() => new FakeStaffSocket());
  render(<StaffApp connect={connect} />);
  return { connect, user: userEvent.setup() };
}

async function password(user: ReturnType<typeof userEvent.setup>, pass = 'right-password-1') {
  await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' });
  await user.type(screen.getByLabelText('Username'), 'pim');
  await user.type(screen.getByLabelText('Password'), pass);
  await user.keyboard('{Enter}');
}

describe('staff sign-in with a second factor', () => {
  it('asks for the code after the password; refusals are alerts; the right code signs in', async () => {
    const codes: unknown[] = [];
    const answers = [errorResponse('WRONG_TOTP', 401), errorResponse('REQUEST_LIMIT', 429)];
    server.use(
      http.post('/api/staff/login', () => HttpResponse.json({ totpRequired: true, challenge: 'challenge-1' })),
      http.post('/api/staff/login/totp', async ({ request }) => {
        codes.push(await request.json());
        return answers.shift() ?? HttpResponse.json({ token: 'staff-token-2fa', staff });
      }),
      http.get('/api/staff/conversations', () => HttpResponse.json({ conversations: [] })),
    );
    const { user, connect } = start();
    await password(user);

    // The second step: the code field has the focus, is numeric, and is filled by one-time-code autocomplete.
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-step verification' })).toBeInTheDocument();
    const field = screen.getByLabelText('6-digit code');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAccessibleDescription('Enter the 6-digit code your authenticator app shows for pim.');
    expect(window.sessionStorage.getItem('staff-token')).toBeNull();
    expect(connect).not.toHaveBeenCalled();

    // Not 6 digits: told at once, nothing sent.
    await user.type(field, '12a4');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the 6 digits of the code.');
    expect(codes).toEqual([]);

    await user.clear(field);
    await user.type(field, '000000{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong or already used code. Wait for the next code, then try again.'));
    expect(screen.getByLabelText('6-digit code')).toHaveValue('');
    expect(screen.getByLabelText('6-digit code')).toHaveFocus();
    expect(screen.getByLabelText('6-digit code')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('6-digit code'), '111111{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts. Wait a few minutes, then try again.'));

    await user.type(screen.getByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Conversations' })).toBeInTheDocument();
    expect(codes).toEqual([
      { challenge: 'challenge-1', code: '000000' },
      { challenge: 'challenge-1', code: '111111' },
      { challenge: 'challenge-1', code: '123456' },
    ]);
    expect(window.sessionStorage.getItem('staff-token')).toBe('staff-token-2fa');
    expect(connect).toHaveBeenCalledWith('staff-token-2fa');
    expect(screen.getByText('Signed in as Pim Payments')).toBeInTheDocument();
  });

  it('an expired challenge returns to the password with the username kept; Back does too', async () => {
    server.use(
      http.post('/api/staff/login', () => HttpResponse.json({ totpRequired: true, challenge: 'challenge-old' })),
      http.post('/api/staff/login/totp', () => errorResponse('invalid-token', 401)),
    );
    const { user } = start();
    await password(user);
    await user.type(await screen.findByLabelText('6-digit code'), '123456{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The sign-in took too long. Enter your password again.');
    expect(screen.getByLabelText('Username')).toHaveValue('pim');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(window.sessionStorage.getItem('staff-token')).toBeNull();

    await user.type(screen.getByLabelText('Password'), 'right-password-1{Enter}');
    await screen.findByLabelText('6-digit code');
    await user.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign-in' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });

  it('speaks Thai and Lao on the code step', async () => {
    server.use(http.post('/api/staff/login', () => HttpResponse.json({ totpRequired: true, challenge: 'c' })), http.post('/api/staff/login/totp', () => errorResponse('WRONG_TOTP', 401)));
    const { user } = start('th');
    await user.type(await screen.findByLabelText('ชื่อผู้ใช้'), 'pim');
    await user.type(screen.getByLabelText('รหัสผ่าน'), 'right-password-1{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'การยืนยันตัวตนสองขั้นตอน' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('รหัส 6 หลัก'), '654321{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('รหัสไม่ถูกต้องหรือถูกใช้ไปแล้ว'));
    await user.selectOptions(screen.getByLabelText('ภาษา'), 'la');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ການຢືນຢັນຕົວຕົນສອງຂັ້ນຕອນ');
    expect(screen.getByLabelText('ລະຫັດ 6 ຫຼັກ')).toBeInTheDocument();
  });
});
