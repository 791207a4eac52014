/**
 * When the agreement opens, apart from the dialog (AgreementModal.tsx): the home page loads the dialog, with its HTML
 * sanitizer (DOMPurify), only when it opens, so neither is downloaded before the home's first screen.
 */
import { useEffect } from 'react';

import { useAppSelector } from '../../core/hooks';
import { selectAgreementAccepted } from '../../core/prefs';
import { useModal } from '../../components/useModal';

export const AGREEMENT_MODAL = 'agreement';
/** Spec §9: the agreement opens 1.5 s after the home screen. */
export const AGREEMENT_DELAY_MS = 1500;

/** Opens the agreement 1.5 s after the home screen mounts, unless the player accepted it before (remember-agreement). */
export function useAgreementPrompt(): void {
  const accepted = useAppSelector(selectAgreementAccepted);
  const { open } = useModal(AGREEMENT_MODAL);
  useEffect(() => {
    if (accepted) return;
    const timer = setTimeout(open, AGREEMENT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [accepted, open]);
}
