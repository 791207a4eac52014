import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { isEnglishName, needsEnglishName, normalizeName, upperCaseName } from '../lib/bankAccountName';
import { renderWithProviders } from '../test/support/render';
import { errorResponse, server } from '../test/support/server';
import { EDIT_BANK_NAME_MODAL, EditBankNameModal } from './EditBankNameModal';

const VIEW = {
  profile: { _id: '12', username: '0812345678', name: 'Somchai', createdAt: '2026-11-25T10:00:00.000Z' },
  bankAccount: { bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '1234567890', bankCode: 'KTB', bank: { nameTH: 'ธนาคารกรุงไทย', nameEN: 'Krungthai Bank' } },
};

function answers(answer: () => Response = () => HttpResponse.json(VIEW)) {
  const bodies: unknown[] = [];
  server.use(
    http.put('/api/account/bankAccountName', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

function open(initialName?: string) {
  const onClose = jest.fn();
  const onSaved = jest.fn();
  const view = renderWithProviders(<EditBankNameModal bankCode="KTB" onClose={onClose} onSaved={onSaved} initialName={initialName} />, {
    preloadedState: { session: { token: 'tok', remember: false, login: { status: 'loggedIn' } } },
  });
  return { ...view, onClose, onSaved };
}

describe('edit bank account name modal', () => {
  it('is a labelled dialog on the modal stack, the name upper-cased as typed', async () => {
    answers();
    const { user, store } = open('somchai');
    expect(await screen.findByRole('dialog', { name: 'Edit bank account name' })).toBeInTheDocument();
    expect(store.getState().modals.stack).toEqual([EDIT_BANK_NAME_MODAL]);
    const input = screen.getByLabelText('Bank account name (English)');
    expect(input).toHaveValue('SOMCHAI');
    await user.type(input, ' jaidee');
    expect(input).toHaveValue('SOMCHAI JAIDEE');
  });

  it('requires a name: an inline message, nothing sent', async () => {
    const bodies = answers();
    const { user, onSaved } = open();
    await user.click(await screen.findByTestId('bank-name-save'));
    const input = screen.getByLabelText('Bank account name (English)');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/Please enter the bank account name\./);
    expect(bodies).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('refuses anything but A-Z and spaces with the English-required toast, nothing sent', async () => {
    const bodies = answers();
    const { user, onSaved } = open();
    await user.type(await screen.findByLabelText('Bank account name (English)'), 'สมชาย jaidee');
    await user.click(screen.getByTestId('bank-name-save'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please enter the name in English letters (A-Z) only.'));
    expect(bodies).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('saves the name upper-cased and single-spaced, then reports the stored name', async () => {
    const bodies = answers();
    const { user, onSaved, onClose } = open();
    await user.type(await screen.findByLabelText('Bank account name (English)'), '  somchai   jaidee ');
    await user.click(screen.getByTestId('bank-name-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('SOMCHAI JAIDEE'));
    expect(bodies).toEqual([{ bankCode: 'KTB', bankAccountName: 'SOMCHAI JAIDEE' }]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows a server refusal as a translated toast and does not report a save', async () => {
    answers(() => errorResponse('INVALID_BANK'));
    const { user, onSaved } = open('SOMCHAI');
    await user.click(await screen.findByTestId('bank-name-save'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The bank is not valid.'));
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('closes on Escape and takes itself off the modal stack when unmounted', async () => {
    answers();
    const { user, onClose, unmount, store } = open();
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
    unmount();
    expect(store.getState().modals.stack).toEqual([]);
  });
});

describe('bank account name formatting (spec §5)', () => {
  it.each([
    ['somchai', 'SOMCHAI'],
    ['Somchai Jai-dee', 'SOMCHAI JAI-DEE'],
    ['สมชาย', 'สมชาย'],
    ['', ''],
  ])('upper-cases %p as typed -> %p', (typed, shown) => {
    expect(upperCaseName(typed)).toBe(shown);
  });

  it.each([
    ['SOMCHAI JAIDEE', true],
    ['somchai jaidee', true],
    ['SOMCHAI  JAIDEE', true],
    ['สมชาย', false],
    ['SOMCHAI สมชาย', false],
    ['JAI-DEE', false],
    ['O\'NEIL', false],
    ['SOMCHAI2', false],
    ['   ', false],
    ['', false],
  ])('English-only check of %p -> %p', (name, ok) => {
    expect(isEnglishName(name)).toBe(ok);
  });

  it('sends the name trimmed, single-spaced and upper case', () => {
    expect(normalizeName('  somchai \t  jaidee ')).toBe('SOMCHAI JAIDEE');
  });

  it('asks for English names on KTB, TMB and BBL only', () => {
    expect(['KTB', 'TMB', 'BBL'].every(needsEnglishName)).toBe(true);
    expect(['KBANK', 'SCB', 'BCEL', '', null, undefined].some(needsEnglishName)).toBe(false);
  });
});
