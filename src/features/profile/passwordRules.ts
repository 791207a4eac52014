export interface PasswordChange {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Spec §5 change password: all three fields required (any empty: the submit silently does nothing), and the
 * new password must equal its confirmation (an inline password-not-equal message). The server's minimum (the
 * info lookup's passwordMinLength) is named under the new password; a shorter one answers PASSWORD_TOO_SHORT.
 */
export type PasswordCheck = { outcome: 'ignored' } | { outcome: 'notEqual' } | { outcome: 'send' };

export function checkPasswordChange({ oldPassword, newPassword, confirmPassword }: PasswordChange): PasswordCheck {
  if (oldPassword === '' || newPassword === '' || confirmPassword === '') return { outcome: 'ignored' };
  if (newPassword !== confirmPassword) return { outcome: 'notEqual' };
  return { outcome: 'send' };
}
