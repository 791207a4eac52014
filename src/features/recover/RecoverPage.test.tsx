import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';

type Body = Record<string, unknown>;

/** The three calls of a reset; `verifyAnswer` decides the code check's answer. */
function serveRecovery(verifyAnswer: (body: Body) => Response = () => HttpResponse.json({ code: 'OTP_CODE_VALID' })) {
  const calls = { forgot: [] as Body[], verify: [] as Body[], reset: [] as Body[] };
  server.use(
    http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false, passwordMinLength: 6 })),
    http.post('/api/account/forgot', async ({ request }) => {
      calls.forgot.push((await request.json()) as Body);
      return HttpResponse.json({ otpRef: 'ABCDEF', otpToken: `tok-${calls.forgot.length}` });
    }),
    http.post('/api/otp/verify', async ({ request }) => {
      const body = (await request.json()) as Body;
      calls.verify.push(body);
      return verifyAnswer(body);
    }),
    http.post('/api/account/reset', async ({ request }) => {
      calls.reset.push((await request.json()) as Body);
      return HttpResponse.json({ message: 'OK' });
    }),
  );
  return calls;
}

describe('forgot password (/forgot, issue 40 item 4)', () => {
  it('is linked from the login screen', async () => {
    const { user, router } = renderApp('/login');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot password' })).toHaveAttribute('data-testid', 'page-title');
  });

  it('phone, SMS code, new password: each step takes the focus, and the last one says every device was logged out', async () => {
    const calls = serveRecovery();
    const { user, router } = renderApp('/forgot');
    await user.type(await screen.findByLabelText('Phone number'), '0812345678');
    await user.keyboard('{Enter}');

    const codeHeading = await screen.findByRole('heading', { name: 'The code from the SMS' });
    await waitFor(() => expect(codeHeading).toHaveFocus());
    expect(calls.forgot).toEqual([{ phoneNumber: '0812345678', lang: 'en' }]);
    // Worded for any phone: the answer does not say whether the number has an account.
    expect(screen.getByText(/If 0812345678 has an account/)).toBeInTheDocument();
    expect(screen.getByTestId('recover-ref')).toHaveTextContent('ABCDEF');
    await user.type(screen.getByLabelText('Code from the SMS'), '12a3456');
    await user.click(screen.getByRole('button', { name: 'Confirm code' }));

    const passwordHeading = await screen.findByRole('heading', { name: 'A new password' });
    await waitFor(() => expect(passwordHeading).toHaveFocus());
    expect(calls.verify).toEqual([{ otpToken: 'tok-1', otpCode: '123456' }]);
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('At least 6 characters.');
    await user.type(screen.getByLabelText('New password'), 'brand-new');
    await user.type(screen.getByLabelText('Confirm new password'), 'brand-nex');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('The passwords do not match.');
    expect(calls.reset).toEqual([]);
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'brand-new');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByTestId('recover-done')).toHaveTextContent('every device was logged out');
    expect(screen.getByTestId('recover-done')).toHaveAttribute('role', 'status');
    expect(calls.reset).toEqual([{ otpToken: 'tok-1', newPassword: 'brand-new' }]);
    await user.click(screen.getByRole('link', { name: 'Go to log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('a wrong code shows the refusal translated and stays on the code step; a new code can be asked for', async () => {
    const calls = serveRecovery(() => errorResponse('OTP_CODE_INVALID', 400));
    const { user } = renderApp('/forgot', { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
    await user.type(await screen.findByLabelText('หมายเลขโทรศัพท์'), '0812345678');
    await user.click(screen.getByRole('button', { name: 'ส่งรหัส' }));
    await user.type(await screen.findByLabelText('รหัสจาก SMS'), '000000');
    await user.click(screen.getByRole('button', { name: 'ยืนยันรหัส' }));
    const error = await screen.findByTestId('recover-error');
    await waitFor(() => expect(error).not.toBeEmptyDOMElement());
    expect(error).toHaveAttribute('role', 'alert');
    expect(within(screen.getByTestId('recover-code-form')).getByRole('button', { name: 'ส่งรหัสใหม่' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'ส่งรหัสใหม่' }));
    await waitFor(() => expect(calls.forgot).toEqual([{ phoneNumber: '0812345678', lang: 'th' }, { phoneNumber: '0812345678', lang: 'th' }]));
  });

  it('asks for the phone before calling the server', async () => {
    const calls = serveRecovery();
    const { user } = renderApp('/forgot');
    await user.click(await screen.findByRole('button', { name: 'Send code' }));
    expect(screen.getByLabelText('Phone number')).toHaveAccessibleDescription('Please enter your phone number.');
    expect(screen.getByLabelText('Phone number')).toHaveFocus();
    expect(calls.forgot).toEqual([]);
  });
});
