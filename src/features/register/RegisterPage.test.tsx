import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp, renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import RegisterPage, { REDIRECT_AFTER_REGISTER_MS } from './RegisterPage';
import type { RegistrationPayload } from './registerApi';

const BANKS = [
  { code: 'KBANK', nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', market: 'th', englishNameOnly: false },
  { code: 'KTB', nameTH: 'ธนาคารกรุงไทย', nameEN: 'Krungthai Bank', market: 'th', englishNameOnly: true },
  { code: 'WW', nameTH: 'วอลเล็ต', nameEN: 'Wallet', bankType: 'PAYMENT' },
  { code: 'BCEL', nameTH: 'ธนาคารการค้าต่างประเทศลาว', nameEN: 'BCEL', market: 'lao', englishNameOnly: false },
  { code: 'LDB', nameTH: 'ธนาคารพัฒนาลาว', nameEN: 'Lao Development Bank', market: 'lao', englishNameOnly: false },
];
const SOURCES = [
  { code: 'facebook', description: 'Facebook' },
  { code: 'friend', description: 'Friend' },
];

/** The registration calls at the fetch boundary; records what the SPA sends. */
function backend({
  otp = false,
  validate = () => HttpResponse.json({ message: 'OK' }) as Response,
  register = () => HttpResponse.json({ message: 'OK' }) as Response,
  checkPhone = () => HttpResponse.json({ message: 'OK' }) as Response,
} = {}) {
  const calls = {
    sends: [] as unknown[], verifies: [] as unknown[], validates: [] as RegistrationPayload[], registers: [] as RegistrationPayload[],
    checks: [] as unknown[], bankMarkets: [] as (string | null)[],
  };
  server.use(
    http.get('/api/lookup/registerOTP', () => HttpResponse.json({ registerOTP: otp })),
    http.get('/api/lookup/sources', () => HttpResponse.json(SOURCES)),
    // The server's filter (GET /api/lookup/banks?market=): the build's market's banks only.
    http.get('/api/lookup/banks', ({ request }) => {
      const market = new URL(request.url).searchParams.get('market');
      calls.bankMarkets.push(market);
      return HttpResponse.json(BANKS.filter((bank) => !market || !bank.market || bank.market === market));
    }),
    http.post('/api/account/checkPhone', async ({ request }) => {
      calls.checks.push(await request.json());
      return checkPhone();
    }),
    http.post('/api/otp/send', async ({ request }) => {
      calls.sends.push(await request.json());
      return HttpResponse.json({ otpRef: `REF${calls.sends.length}`, otpToken: `tok-${calls.sends.length}` });
    }),
    http.post('/api/otp/verify', async ({ request }) => {
      const body = (await request.json()) as { otpCode: string };
      calls.verifies.push(body);
      return body.otpCode === '123456' ? HttpResponse.json({ code: 'OTP_CODE_VALID' }) : errorResponse('OTP_CODE_INVALID');
    }),
    http.post('/api/account/validate', async ({ request }) => {
      calls.validates.push((await request.json()) as RegistrationPayload);
      return validate();
    }),
    http.post('/api/account', async ({ request }) => {
      calls.registers.push((await request.json()) as RegistrationPayload);
      return register();
    }),
  );
  return calls;
}

type User = ReturnType<typeof renderApp>['user'];

async function phoneStep(user: User, phone = '0812345678') {
  await user.type(await screen.findByLabelText('Phone number'), phone);
  await user.click(screen.getByTestId('register-next'));
}

async function profileStep(user: User, { confirm = 'secret1' } = {}) {
  await user.type(await screen.findByLabelText('Profile name'), 'Somchai');
  await user.type(screen.getByLabelText('Password'), 'secret1');
  await user.type(screen.getByLabelText('Confirm password'), confirm);
  await screen.findByRole('option', { name: 'Facebook' });
  await user.selectOptions(screen.getByLabelText('How did you hear about us?'), 'facebook');
  await user.click(screen.getByTestId('register-next'));
}

/** Fills the bank step once its bank list has loaded, the age box ticked unless `age` is false; submitting is the caller's. */
async function fillBankStep(user: User, { bank = 'KBANK', first = 'somchai', last = 'jai dee', age = true } = {}) {
  await waitFor(() => expect(screen.getByLabelText('Bank').querySelector(`option[value="${bank}"]`)).not.toBeNull());
  await user.selectOptions(screen.getByLabelText('Bank'), bank);
  await user.type(screen.getByLabelText('Account number'), '123-456-7890');
  await user.type(screen.getByLabelText('Account first name'), first);
  await user.type(screen.getByLabelText('Account last name'), last);
  if (age) await user.click(screen.getByTestId('register-age'));
}

async function bankStep(user: User, entries: Parameters<typeof fillBankStep>[1] = {}) {
  await fillBankStep(user, entries);
  await user.click(screen.getByTestId('register-submit'));
}

const stepHeading = () => screen.getByTestId('register-step');

describe('register screen: the four steps', () => {
  it('registers without OTP: phone -> profile -> bank -> success, then /login after 2 s', async () => {
    const calls = backend();
    const { user, router, store } = renderApp('/register');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Register');
    expect(screen.getByTestId('register-progress')).toHaveTextContent('Step 1 of 3');
    await phoneStep(user);

    await waitFor(() => expect(stepHeading()).toHaveTextContent('Your profile'));
    expect(stepHeading()).toHaveFocus();
    expect(screen.getByTestId('register-progress')).toHaveTextContent('Step 2 of 3');
    expect(calls.sends).toEqual([]);
    await profileStep(user);

    await waitFor(() => expect(stepHeading()).toHaveTextContent('Bank account'));
    expect(stepHeading()).toHaveFocus();
    expect(calls.validates).toEqual([
      {
        name: 'Somchai',
        username: '0812345678',
        password: 'secret1',
        sourceCode: 'facebook',
        inviteCode: null,
        bankCode: '',
        bankAccountName: '',
        bankAccountNo: '',
        currency: '',
      },
    ]);
    // Only BANK types are offered; the names are upper-cased as typed; the account number keeps its digits.
    expect(screen.queryByRole('option', { name: 'Wallet' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('register-currency')).not.toBeInTheDocument();
    await fillBankStep(user);
    // Checked before submitting: once the server answers, the success message replaces the form.
    expect(screen.getByLabelText('Account first name')).toHaveValue('SOMCHAI');
    expect(screen.getByLabelText('Account number')).toHaveValue('1234567890');
    // From the submit on, the clock moves only when the test moves it, so the 2 s before /login are measured
    // exactly however busy the machine is (a clock that also follows real time let the redirect fire early).
    jest.useFakeTimers();
    try {
      const timedUser = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      await timedUser.click(screen.getByTestId('register-submit'));

      expect(await screen.findByTestId('register-success')).toHaveTextContent('Your account is ready');
      expect(stepHeading()).toHaveTextContent('Registration complete');
      expect(calls.registers).toEqual([
        {
          name: 'Somchai',
          username: '0812345678',
          password: 'secret1',
          sourceCode: 'facebook',
          inviteCode: null,
          bankCode: 'KBANK',
          bankAccountName: 'SOMCHAI JAI DEE',
          bankAccountNo: '1234567890',
          currency: 'BAHT',
          ageConfirmed: true,
        },
      ]);
      expect(router.state.location.pathname).toBe('/register');
      await act(() => jest.advanceTimersByTime(REDIRECT_AFTER_REGISTER_MS - 100));
      expect(router.state.location.pathname).toBe('/register');
      await act(() => jest.advanceTimersByTime(200));
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    } finally {
      jest.useRealTimers();
    }
    // Nothing entered (passwords included) stays in the store once the screen is left.
    expect(store.getState().register).toMatchObject({ step: 'phone', phone: '', profile: null });
  });

  it('with OTP on: sends the code, shows its reference, verifies, and a new code replaces the reference', async () => {
    const calls = backend({ otp: true });
    const { user } = renderApp('/register');
    await phoneStep(user);
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Verify your phone'));
    expect(stepHeading()).toHaveFocus();
    expect(screen.getByTestId('register-progress')).toHaveTextContent('Step 2 of 4');
    expect(screen.getByTestId('register-otp-ref')).toHaveTextContent('Reference: REF1');
    expect(calls.sends).toEqual([{ phoneNumber: '0812345678', lang: 'en' }]);

    await user.click(screen.getByTestId('register-otp-resend'));
    await waitFor(() => expect(screen.getByTestId('register-otp-ref')).toHaveTextContent('Reference: REF2'));
    expect(calls.sends[1]).toEqual({ phoneNumber: '0812345678', lang: 'en' });

    await user.type(screen.getByLabelText('OTP code'), '000000');
    await user.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('The OTP code is incorrect.'));
    expect(stepHeading()).toHaveTextContent('Verify your phone');

    await user.clear(screen.getByLabelText('OTP code'));
    await user.type(screen.getByLabelText('OTP code'), '123456');
    await user.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Your profile'));
    expect(calls.verifies).toEqual([
      { otpToken: 'tok-2', otpCode: '000000' },
      { otpToken: 'tok-2', otpCode: '123456' },
    ]);
    expect(screen.getByTestId('register-progress')).toHaveTextContent('Step 3 of 4');

    // Back to the phone, same number again: verified already, so no second OTP step.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Phone number'));
    expect(screen.getByLabelText('Phone number')).toHaveValue('0812345678');
    await user.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Your profile'));
    expect(calls.sends).toHaveLength(2);
  });

  it('skips the OTP step when the send answers OTP_VERIFIED', async () => {
    backend({ otp: true });
    server.use(http.post('/api/otp/send', () => HttpResponse.json({ code: 'OTP_VERIFIED' })));
    const { user } = renderApp('/register');
    await phoneStep(user);
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Your profile'));
  });

  it('asks for 10 digits with the spec message, marks the field invalid and sends nothing', async () => {
    const calls = backend({ otp: true });
    const { user } = renderApp('/register');
    await phoneStep(user, '08123');
    const field = screen.getByLabelText('Phone number');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/The phone number must support 10 digits/);
    expect(field).toHaveFocus();
    expect(stepHeading()).toHaveTextContent('Phone number');
    expect(calls.sends).toEqual([]);
  });

  it('shows a send failure translated on the phone step', async () => {
    backend({ otp: true });
    server.use(http.post('/api/otp/send', () => errorResponse('EXISTING_USER', 409)));
    const { user } = renderApp('/register');
    await phoneStep(user);
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('This phone number is already registered.'));
  });

  it('tells a registered phone on step 1 when OTP is off (issue 12): no profile step, nothing validated', async () => {
    const calls = backend({ checkPhone: () => errorResponse('EXISTING_USER', 409) });
    const { user } = renderApp('/register');
    await phoneStep(user);
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('This phone number is already registered.'));
    expect(stepHeading()).toHaveTextContent('Phone number');
    expect(calls.checks).toEqual([{ username: '0812345678' }]);
    expect(calls.sends).toEqual([]);
    expect(calls.validates).toEqual([]);
  });

  it('sends the OTP in the player\'s language (issue 12)', async () => {
    const calls = backend({ otp: true });
    const { user } = renderApp('/register', { preloadedState: { prefs: { ...initialPrefs, locale: 'la' } } });
    await user.type(await screen.findByTestId('register-phone'), '0812345678');
    await user.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(calls.sends).toEqual([{ phoneNumber: '0812345678', lang: 'la' }]));
  });

  it('names the password rule of the info lookup before typing, checks it, and names it when the server refuses (issue 12)', async () => {
    const calls = backend({ validate: () => errorResponse('PASSWORD_TOO_SHORT', 400) });
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false, passwordMinLength: 8 })));
    const { user } = renderApp('/register');
    await phoneStep(user);
    const password = await screen.findByLabelText('Password');
    await waitFor(() => expect(password).toHaveAccessibleDescription('At least 8 characters'));
    expect(password).toHaveValue('');
    // secret1 is 7 characters: refused here, nothing sent.
    await profileStep(user);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(/The password needs at least 8 characters/);
    expect(calls.validates).toEqual([]);
    // The server's own refusal (its rule may be stricter than the one shown) names the rule too.
    await user.type(password, '8');
    await user.type(screen.getByLabelText('Confirm password'), '8');
    await user.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('The password is too short: it needs at least 8 characters.'));
    expect(calls.validates).toHaveLength(1);
  });

  it('offers the Thai build the Thai banks of the lookup (market=th) and says English only as soon as KTB is chosen (issue 12)', async () => {
    const calls = backend();
    const { user } = renderApp('/register');
    await phoneStep(user);
    await profileStep(user);
    await screen.findByRole('option', { name: 'Krungthai Bank' });
    expect(calls.bankMarkets).toEqual(['th']);
    expect(screen.queryByRole('option', { name: 'BCEL' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('register-english-only')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Bank'), 'KTB');
    // Before any name is typed.
    expect(screen.getByTestId('register-english-only')).toHaveTextContent('Krungthai Bank takes the account name in English letters only (A-Z)');
    expect(screen.getByLabelText('Account first name')).toHaveValue('');
    await user.selectOptions(screen.getByLabelText('Bank'), 'KBANK');
    expect(screen.queryByTestId('register-english-only')).not.toBeInTheDocument();
  });

  it("refuses passwords that don't match, and requires name, passwords and source", async () => {
    const calls = backend();
    const { user } = renderApp('/register');
    await phoneStep(user);
    await screen.findByLabelText('Profile name');
    await user.click(screen.getByTestId('register-next'));
    expect(screen.getByLabelText('Profile name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Profile name')).toHaveFocus();
    expect(screen.getByLabelText('How did you hear about us?')).toHaveAccessibleDescription('Please choose one.');
    await profileStep(user, { confirm: 'secret2' });
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription("Passwords don't match");
    expect(calls.validates).toEqual([]);
  });

  it('shows a validation failure on the profile step, and a phone failure back on the phone step', async () => {
    let answer = 'INVALID_USER_INFO';
    backend({ validate: () => errorResponse(answer, answer === 'EXISTING_USER' ? 409 : 400) });
    const { user } = renderApp('/register');
    await phoneStep(user);
    await profileStep(user);
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('The registration details are incomplete or invalid.'));
    expect(stepHeading()).toHaveTextContent('Your profile');

    answer = 'EXISTING_USER';
    await user.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Phone number'));
    expect(screen.getByTestId('register-error')).toHaveTextContent('This phone number is already registered.');
    // The profile entries wait for the player on the way back.
    await user.clear(screen.getByLabelText('Phone number'));
    await user.type(screen.getByLabelText('Phone number'), '0899999999');
    await user.click(screen.getByTestId('register-next'));
    expect(await screen.findByLabelText('Profile name')).toHaveValue('Somchai');
  });

  it('requires the bank fields and English-only names for KTB, TMB and BBL', async () => {
    const calls = backend();
    const { user } = renderApp('/register');
    await phoneStep(user);
    await profileStep(user);
    await screen.findByRole('option', { name: 'Krungthai Bank' });
    await user.click(screen.getByTestId('register-submit'));
    expect(screen.getByLabelText('Bank')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Account number')).toHaveAccessibleDescription(/This field is required/);
    expect(screen.getByLabelText('Account first name')).toHaveAttribute('aria-invalid', 'true');

    await bankStep(user, { bank: 'KTB', first: 'สมชาย', last: 'jaidee' });
    expect(screen.getByLabelText('Account first name')).toHaveAccessibleDescription(/Bank account name must be in English only/);
    expect(screen.getByLabelText('Account last name')).not.toHaveAttribute('aria-invalid');
    expect(calls.registers).toEqual([]);
  });

  it('shows a registration failure on the bank step and keeps the entries', async () => {
    backend({ register: () => errorResponse('EXISTING_BANK', 409) });
    const { user } = renderApp('/register');
    await phoneStep(user);
    await profileStep(user);
    await bankStep(user);
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('This bank account is already used by another player.'));
    expect(stepHeading()).toHaveTextContent('Bank account');
    expect(screen.getByLabelText('Account last name')).toHaveValue('JAI DEE');
    // Back to the profile and forward again: the bank entries are still there.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(await screen.findByTestId('register-next'));
    expect(await screen.findByLabelText('Account number')).toHaveValue('1234567890');
  });

  it('keeps the invite code from ?code= on the device and shows it read-only', async () => {
    const calls = backend();
    const { user, store } = renderApp('/register?code=pr42');
    await waitFor(() => expect(store.getState().prefs.inviteCode).toBe('PR42'));
    await phoneStep(user);
    const invite = await screen.findByLabelText('Inviter code');
    expect(invite).toHaveValue('PR42');
    expect(invite).toHaveAttribute('readonly');
    await profileStep(user);
    await waitFor(() => expect(calls.validates).toHaveLength(1));
    expect(calls.validates[0].inviteCode).toBe('PR42');
  });

  it('shows a stored invite code read-only without a query parameter', async () => {
    backend();
    const { user } = renderApp('/register', { preloadedState: { prefs: { ...initialPrefs, locale: 'en', inviteCode: 'PR7' } } });
    await phoneStep(user);
    expect(await screen.findByLabelText('Inviter code')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Inviter code')).toHaveValue('PR7');
  });

  it('says so when the sources cannot be loaded, and loads them again on request', async () => {
    backend();
    let fail = true;
    server.use(http.get('/api/lookup/sources', () => (fail ? errorResponse('INTERNAL_SERVER_ERROR', 500) : HttpResponse.json(SOURCES))));
    const { user } = renderApp('/register');
    await phoneStep(user);
    expect(await screen.findByText('The lists could not be loaded. Please try again.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('option', { name: 'Facebook' })).toBeInTheDocument();
  });

  it('is in Thai for a Thai player', async () => {
    backend();
    const { user } = renderApp('/register', { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
    await user.type(await screen.findByLabelText('หมายเลขโทรศัพท์'), '12');
    await user.click(screen.getByTestId('register-next'));
    expect(screen.getByLabelText('หมายเลขโทรศัพท์')).toHaveAccessibleDescription(/หมายเลขโทรศัพท์ต้องมี 10 หลัก/);
  });
});

describe('register screen: the age confirmation (issue 15)', () => {
  it('names the minimum age of the info lookup and must be ticked before anything is sent', async () => {
    const calls = backend();
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false, minPlayerAge: 21 })));
    const { user } = renderApp('/register');
    await phoneStep(user);
    await profileStep(user);
    const box = await screen.findByRole('checkbox', { name: 'I confirm I am at least 21 years old' });
    expect(box).not.toBeChecked();
    expect(box).toBeRequired();
    await bankStep(user, { age: false });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('Please confirm your age to register.');
    expect(calls.registers).toEqual([]);

    await user.click(box);
    expect(box).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(calls.registers).toHaveLength(1));
    expect(calls.registers[0]).toMatchObject({ username: '0812345678', ageConfirmed: true });
    // Only the registration carries it; the profile step's validation does not.
    expect(calls.validates[0]).not.toHaveProperty('ageConfirmed');
  });

  it('shows the server refusing the age confirmation (AGE_NOT_CONFIRMED), translated', async () => {
    backend({ register: () => errorResponse('AGE_NOT_CONFIRMED', 422) });
    const { user } = renderApp('/register', { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
    await user.type(await screen.findByLabelText('หมายเลขโทรศัพท์'), '0812345678');
    await user.click(screen.getByTestId('register-next'));
    await user.type(await screen.findByTestId('register-name'), 'Somchai');
    await user.type(screen.getByTestId('register-password'), 'secret1');
    await user.type(screen.getByTestId('register-confirm'), 'secret1');
    await screen.findByRole('option', { name: 'Facebook' });
    await user.selectOptions(screen.getByTestId('register-source'), 'facebook');
    await user.click(screen.getByTestId('register-next'));
    await screen.findByRole('option', { name: 'ธนาคารกสิกรไทย' });
    await user.selectOptions(screen.getByTestId('register-bank'), 'KBANK');
    await user.type(screen.getByTestId('register-account-no'), '1234567890');
    await user.type(screen.getByTestId('register-first-name'), 'somchai');
    await user.type(screen.getByTestId('register-last-name'), 'jaidee');
    // Without the info lookup's age the label still asks for the confirmation, in the player's language.
    expect(screen.getByRole('checkbox', { name: 'ข้าพเจ้ายืนยันว่ามีอายุถึงเกณฑ์ที่เล่นในเว็บไซต์นี้ได้' })).toBeInTheDocument();
    await user.click(screen.getByTestId('register-age'));
    await user.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(screen.getByTestId('register-error')).toHaveTextContent('กรุณายืนยันว่าคุณมีอายุถึงเกณฑ์ขั้นต่ำ'));
  });
});

describe('register screen: the Lao build (MARKET=lao)', () => {
  it('offers the Lao banks of the lookup (market=lao: BCEL and the others), not the Thai ones (issue 12)', async () => {
    const calls = backend();
    const { user } = renderWithProviders(<RegisterPage market="lao" />, { route: '/register' });
    await phoneStep(user, '02012345678');
    await profileStep(user);
    await screen.findByRole('option', { name: 'BCEL' });
    expect(screen.getByRole('option', { name: 'Lao Development Bank' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Kasikornbank' })).not.toBeInTheDocument();
    expect(calls.bankMarkets).toEqual(['lao']);
    await bankStep(user, { bank: 'BCEL' });
    await waitFor(() => expect(calls.registers).toHaveLength(1));
    expect(calls.registers[0]).toMatchObject({ bankCode: 'BCEL' });
  });

  it('drops the 10-digit rule and offers LAK or BAHT, LAK by default', async () => {
    const calls = backend();
    const { user } = renderWithProviders(<RegisterPage market="lao" />, { route: '/register' });
    await phoneStep(user, '02012345678');
    await profileStep(user);
    expect(await screen.findByRole('group', { name: 'Currency' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'LAK (kip)' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'BAHT (baht)' }));
    await user.click(screen.getByRole('radio', { name: 'LAK (kip)' }));
    await bankStep(user, { bank: 'BCEL' });
    await waitFor(() => expect(calls.registers).toHaveLength(1));
    expect(calls.registers[0]).toMatchObject({ username: '02012345678', currency: 'LAK' });
  });

  it('sends BAHT when the player chooses it, and still refuses letters in the phone', async () => {
    const calls = backend();
    const { user } = renderWithProviders(<RegisterPage market="lao" />, { route: '/register' });
    await phoneStep(user, '020abc');
    expect(screen.getByLabelText('Phone number')).toHaveAccessibleDescription(/may contain digits only/);
    await user.clear(screen.getByLabelText('Phone number'));
    await phoneStep(user, '20555123');
    await profileStep(user);
    await user.click(await screen.findByRole('radio', { name: 'BAHT (baht)' }));
    await bankStep(user, { bank: 'BCEL' });
    await waitFor(() => expect(calls.registers).toHaveLength(1));
    expect(calls.registers[0]).toMatchObject({ username: '20555123', currency: 'BAHT' });
  });
});
