import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useGetWalletQuery } from '../../core/walletApi';
import { Modal } from '../../components/Modal';
import { PagedList } from '../../components/PagedList';
import { useFormatAmount } from '../../components/useFormatAmount';
import { copyText } from '../../lib/copy';
import { formatDateTime, pageCount } from '../../lib/format';
import { INVITE_PAGE_SIZE, useGetInvitesQuery } from './inviteApi';
import { inviteLink } from './inviteLink';
import '../../components/forms.css';
import './invite.css';

/** The invite modal's id in the modal stack; home's invite widget opens it behind the banner gate. */
export const INVITE_MODAL = 'invite';

const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/**
 * Spec §2 invite modal: the player's invite link ({origin}/register?code=PR{profileId}) to copy ('Copied: ...' or
 * 'Failed to copy') or share where the browser can; how many invitees deposited and how many not yet; the
 * invitees (name, what they earned the player, when they registered), 10 a page. A failed list only hides its
 * loader (spec §8).
 */
export default function InviteModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const wallet = useGetWalletQuery();
  const [page, setPage] = useState(1);
  const list = useGetInvitesQuery({ page, limit: INVITE_PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  const [copied, setCopied] = useState<{ ok: boolean; text: string } | null>(null);

  const profileId = wallet.data?.profile?._id;
  const link = profileId ? inviteLink(window.location.origin, String(profileId)) : null;
  // The list's answer is the newest; before it (or when it failed) the wallet's.
  const counts = list.data ?? wallet.data?.invite;
  const pages = pageCount(list.data?.total ?? 0, INVITE_PAGE_SIZE);

  const onCopy = async () => {
    if (!link) return;
    setCopied({ ok: await copyText(link), text: link });
  };
  const onShare = () => {
    if (!link || !canShare()) return;
    // A cancelled share sheet rejects; there is nothing to tell the player.
    navigator.share({ title: t('invite.shareTitle'), text: t('invite.shareText'), url: link }).catch(() => undefined);
  };

  return (
    <Modal id={INVITE_MODAL} title={t('invite.title')} onClose={onClose}>
      <div className="invite" data-testid="invite-modal">
        <p className="invite__intro">{t('invite.intro')}</p>
        <label className="invite__label" htmlFor="invite-link">
          {t('invite.link')}
        </label>
        <input
          id="invite-link"
          className="invite__link"
          type="text"
          readOnly
          value={link ?? ''}
          placeholder={link ? undefined : t('common.loading')}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="invite-link"
        />
        <div className="invite__actions">
          <button type="button" className="button button--primary" onClick={() => void onCopy()} disabled={!link} data-testid="invite-copy">
            {t('invite.copy')}
          </button>
          {canShare() && (
            <button type="button" className="button" onClick={onShare} disabled={!link} data-testid="invite-share">
              {t('invite.share')}
            </button>
          )}
        </div>
        <p role="status" className={copied && !copied.ok ? 'field__error invite__copied' : 'invite__copied'} data-testid="invite-copy-result">
          {copied ? (copied.ok ? t('invite.copied', { text: copied.text }) : t('invite.copyFailed')) : ''}
        </p>

        <dl className="invite__counts">
          <div>
            <dt>{t('invite.success')}</dt>
            <dd data-testid="invite-success">{counts ? Number(counts.success) || 0 : '-'}</dd>
          </div>
          <div>
            <dt>{t('invite.fail')}</dt>
            <dd data-testid="invite-fail">{counts ? Number(counts.fail) || 0 : '-'}</dd>
          </div>
        </dl>

        <PagedList
          className="invite-list"
          title={t('invite.list.title')}
          titleId="invite-list-title"
          query={list}
          items={list.data?.invites}
          emptyText={t('invite.list.empty')}
          testId="invite-list"
          page={page}
          pages={pages}
          onPage={setPage}
          pagesLabel={t('invite.list.pages')}
        >
          {(invites) => (
            <table className="invite-list__table" data-testid="invite-list">
              <thead>
                <tr>
                  <th scope="col">{t('invite.list.name')}</th>
                  <th scope="col" className="num">
                    {t('invite.list.amount')}
                  </th>
                  <th scope="col">{t('invite.list.date')}</th>
                </tr>
              </thead>
              <tbody>
                {invites.map((item, index) => (
                  <tr key={`${item.createdAt}-${index}`} data-testid="invite-row">
                    <td>{item.from?.name ?? ''}</td>
                    <td className="num">{format(item.amount)}</td>
                    <td>{formatDateTime(item.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </PagedList>
      </div>
    </Modal>
  );
}
