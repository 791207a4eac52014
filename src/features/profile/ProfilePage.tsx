import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { TextField } from '../../components/FormField';
import { PageTitle } from '../../components/PageTitle';
import { useModal } from '../../components/useModal';
import { formatAccountNumber, formatDateTime } from '../../lib/format';
import { CHANGE_PASSWORD_MODAL, ChangePasswordModal } from './ChangePasswordModal';
import { useGetProfileQuery } from './profileApi';
import './profile.css';

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <rect x="3" y="11" width="18" height="11" rx="2" ry="2" />
      <path d="M7 11V7a5 5 0 0 1 10 0v4" />
    </svg>
  );
}

/**
 * /user/profile (spec §2): name, id, created-at and the lock that opens change password; read-only username,
 * bank account name, bank name (Thai) and account number (3-3-4 when exactly 10 digits). While loading a
 * loader shows; a failed load only hides it (spec §8).
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { data, isLoading } = useGetProfileQuery();
  const password = useModal(CHANGE_PASSWORD_MODAL);
  const bank = data?.bankAccount ?? null;

  return (
    <section className="page page--narrow profile">
      <PageTitle>{t('pages.profile')}</PageTitle>
      {isLoading && (
        <p className="profile__loading muted" role="status" data-testid="profile-loading">
          {t('common.loading')}
        </p>
      )}
      {data && (
        <>
          <div className="profile__card" data-testid="profile-card">
            <div className="profile__who">
              <h2 className="profile__name" data-testid="profile-name">
                {data.profile.name}
              </h2>
              <dl className="profile__facts">
                <div>
                  <dt>{t('profile.id')}</dt>
                  <dd data-testid="profile-id">{data.profile._id}</dd>
                </div>
                <div>
                  <dt>{t('profile.createdAt')}</dt>
                  <dd data-testid="profile-created">{formatDateTime(data.profile.createdAt)}</dd>
                </div>
              </dl>
            </div>
            <button
              type="button"
              className="icon-button profile__lock"
              onClick={password.open}
              aria-haspopup="dialog"
              aria-label={t('profile.changePassword')}
              title={t('profile.changePassword')}
              data-testid="profile-change-password"
            >
              <LockIcon />
            </button>
          </div>
          <div className="form profile__fields">
            <TextField label={t('profile.username')} value={data.profile.username} readOnly data-testid="profile-username" />
            <h2 className="profile__section">{t('profile.bankDetails')}</h2>
            <TextField label={t('profile.bankAccountName')} value={bank?.bankAccountName ?? ''} readOnly data-testid="profile-bank-account-name" />
            <TextField label={t('profile.bankName')} value={bank?.bank.nameTH ?? ''} readOnly data-testid="profile-bank-name" />
            <TextField label={t('profile.accountNo')} value={formatAccountNumber(bank?.bankAccountNo)} readOnly data-testid="profile-account-no" />
          </div>
        </>
      )}
      <Link to="/user/limits" className="button profile__limits" data-testid="profile-limits">
        {t('profile.playLimits')}
      </Link>
      {password.isOpen && <ChangePasswordModal onClose={password.close} />}
    </section>
  );
}
