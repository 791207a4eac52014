import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useUpdateBankAccountNameMutation } from '../core/accountApi';
import { useAppDispatch } from '../core/hooks';
import { modalOpened } from '../core/modalSlice';
import { ERROR_TOAST_MS, showToast } from '../core/notify';
import { isEnglishName, normalizeName, upperCaseName } from '../lib/bankAccountName';
import { Modal } from './Modal';
import './forms.css';

/** The id of this modal in the modal stack (app/modalSlice). */
export const EDIT_BANK_NAME_MODAL = 'editBankName';

export interface EditBankNameModalProps {
  /** The player's registered bank; the server refuses any other (INVALID_BANK). */
  bankCode: string;
  onClose(): void;
  /** Called with the name as stored (upper case, single-spaced) once the server accepted it. */
  onSaved(name: string): void;
  /** The current name, shown to be corrected. */
  initialName?: string;
}

/**
 * Edit bank account name (spec §2 home modals, §5): required, A-Z and spaces only, upper-cased as typed;
 * anything else shows the English-required toast and nothing is sent. Opened by the profile and by the
 * deposit's KBANK copy flow for KTB/TMB/BBL accounts whose name is not in English (spec §4).
 * Render it while it should be open; it puts itself on the modal stack (scroll lock) and takes itself off.
 */
export function EditBankNameModal({ bankCode, onClose, onSaved, initialName = '' }: EditBankNameModalProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [name, setName] = useState(() => upperCaseName(initialName));
  const [missing, setMissing] = useState(false);
  const [save, { isLoading }] = useUpdateBankAccountNameMutation();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  useEffect(() => {
    dispatch(modalOpened(EDIT_BANK_NAME_MODAL));
  }, [dispatch]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    const value = normalizeName(name);
    if (value === '') {
      setMissing(true);
      input.current?.focus();
      return;
    }
    setMissing(false);
    if (!isEnglishName(value)) {
      showToast({ message: t('bankName.englishRequired'), variant: 'error', autoHideDuration: ERROR_TOAST_MS });
      input.current?.focus();
      return;
    }
    // Server failures are shown by the base API as a translated toast.
    const result = await save({ bankCode, bankAccountName: value });
    if ('data' in result && result.data) onSaved(result.data.bankAccount?.bankAccountName ?? value);
  };

  return (
    <Modal id={EDIT_BANK_NAME_MODAL} title={t('bankName.title')} onClose={onClose}>
      <form className="form form--flat" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={inputId}>{t('bankName.label')}</label>
          <input
            ref={input}
            id={inputId}
            name="bankAccountName"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={name}
            onChange={(event) => {
              setName(upperCaseName(event.target.value));
              if (missing) setMissing(false);
            }}
            required
            aria-invalid={missing ? true : undefined}
            aria-describedby={missing ? `${errorId} ${hintId}` : hintId}
            data-testid="bank-name-input"
          />
          <p id={hintId} className="field__hint">
            {t('bankName.hint')}
          </p>
          {missing && (
            <p id={errorId} className="field__error" role="alert">
              {t('bankName.required')}
            </p>
          )}
        </div>
        <button type="submit" className="button button--primary" disabled={isLoading} aria-busy={isLoading} data-testid="bank-name-save">
          {isLoading ? t('bankName.saving') : t('bankName.save')}
        </button>
      </form>
    </Modal>
  );
}
