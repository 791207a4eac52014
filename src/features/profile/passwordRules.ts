export interface PasswordChange {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Spec §5 change password: all three fields required (any empty: the submit silently does nothing), and the
 * new password must equal its confirmation (an inline password-not-equal message). No length rule is shown;
 * the server's minimum answers INVALID_USER_INFO.
 */
export type PasswordCheck = { outcome: 'ignored' } | { outcome: 'notEqual' } | { outcome: 'send' };

export function checkPasswordChange({ oldPassword, newPassword, confirmPassword }: PasswordChange): PasswordCheck {
  if (oldPassword === '' || newPassword === '' || confirmPassword === '') return { outcome: 'ignored' };
  if (newPassword !== confirmPassword) return { outcome: 'notEqual' };
  return { outcome: 'send' };
}
