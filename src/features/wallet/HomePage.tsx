import { memo, Suspense, useCallback, useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { activeBonusApi } from '../../core/activeBonusApi';
import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { MODAL, type ModalId } from '../../core/modalIds';
import { modalOpened } from '../../core/modalSlice';
import { errorText } from '../../core/notify';
import { playLimitsApi, restrictionCode, selectRestriction, useGetLimitsQuery } from '../../core/playLimits';
import { selectLastSync } from '../../core/prefs';
import { retryableLazy } from '../../components/retryableLazy';
import type { AppDispatch } from '../../app/store';
import { useGetSpinActiveQuery, useGetWalletQuery, useRefreshGameBalancesMutation, walletApi } from '../../core/walletApi';
import { BonusLockNotice } from '../../components/BonusLockNotice';
import { PageTitle } from '../../components/PageTitle';
import { useAfterPaint } from '../../components/useAfterPaint';
import { useBannerGate } from '../../components/useBannerGate';
import { useBonusLock } from '../../components/useBonusLock';
import { useModal } from '../../components/useModal';
import { formatDateTime } from '../../lib/format';
import { AGREEMENT_MODAL, useAgreementPrompt } from './agreementPrompt';
import { GameAccountModal, GAME_ACCOUNT_MODAL } from './GameAccountModal';
import { GameCard } from './GameCard';
import { GameCarousel } from './GameCarousel';
import { homeLeft, playRefused } from './homeSlice';
import { launchReset } from './launchSlice';
import { SeamlessLaunchNotice } from './SeamlessLaunchNotice';
import { inviteBonusReceived, moneyModalClosed, selectHome, selectInviteReceiving } from './homeStore';
import { useDelayedFlag, useFormatAmount, useNow } from './hooks';
import { syncTime } from './syncText';
import { BonusIcon, DepositIcon, InviteIcon, RefreshIcon, RefundIcon, SpinIcon, TransferIcon, WithdrawIcon } from './icons';
import { selectGameGroups, selectTotalBalance, type GameGroup } from './selectors';
import { TRANSFER_MODAL, TransferModal } from './TransferModal';
import { WITHDRAW_MODAL, WithdrawModal } from './WithdrawModal';
import './wallet.css';

/** Loaded when it opens (agreementPrompt.ts): it shows server HTML, and its sanitizer is not for the first screen. */
const AgreementModal = retryableLazy(AGREEMENT_MODAL, () => import(/* webpackChunkName: "modal-agreement" */ './AgreementModal'));

const CAROUSEL_TITLES = { slot: 'home.carousels.slot', sport: 'home.carousels.sport', lotto: 'home.carousels.lotto' } as const;

function Widget({ icon, label, onClick, badge, quietBadge, testId, busy, working }: { icon: ReactNode; label: string; onClick: () => void; badge?: string; quietBadge?: boolean; testId: string; busy?: boolean; working?: boolean }) {
  // `working`: the widget's own action runs (refresh-all): busy and aria-disabled from the tap on, its icon turning.
  return (
    <li>
      <button type="button" className="widget" onClick={onClick} data-testid={testId} aria-busy={busy || working || undefined} aria-disabled={working || undefined}>
        {icon}
        <span className="widget__label">{label}</span>
        {/* quietBadge: a count with nothing to act on (0 coins) is neutral, not an alarm in red (issue 40 item 11). */}
        {badge && <span className={quietBadge ? 'widget__badge widget__badge--quiet' : 'widget__badge'}>{badge}</span>}
      </button>
    </li>
  );
}

/**
 * The game carousels, drawn again only when the games, the language or the restriction change: not when a wallet
 * load starts or ends with the same games (the home's own render; each was ~13 ms of a task with the cards).
 */
const HomeCarousels = memo(function HomeCarousels({ groups, onView, onRefused }: { groups: GameGroup[]; onView: (code: string) => void; onRefused?: () => void }) {
  const { t } = useTranslation();
  return groups.map((group) => (
    <GameCarousel
      key={group.category}
      title={t(CAROUSEL_TITLES[group.category])}
      items={group.games}
      itemKey={(game) => game.code}
      renderItem={(game) => <GameCard game={game} onView={onView} onRefused={onRefused} />}
      testId={`carousel-${group.category}`}
    />
  ));
});

/**
 * A query whose request has not started yet (the first render, before the hook's effect; the prerendered home) counts
 * as under way, with no data: the hook's own rule, which a selectFromResult of ours replaces.
 */
const notStarted = (r: { isUninitialized: boolean; data?: unknown }) => r.isUninitialized && r.data === undefined;

/** The home's section, busy while the wallet loads again: a subscription of its own, so a reload's start redraws this alone. */
function HomeSection({ children }: { children: ReactNode }) {
  const { isFetching } = useGetWalletQuery(undefined, { selectFromResult: (r) => ({ isFetching: r.isFetching || notStarted(r) }) });
  return (
    <section className="home" aria-busy={isFetching}>
      {children}
    </section>
  );
}

/**
 * What the home's first render asks for (the wallet, the wheel's switch, the play limits), requested as soon as
 * this module has arrived, before React renders it (app/router.tsx, prefetchOnArrival). Keep it in step with the
 * queries below.
 */
export function prefetch(dispatch: AppDispatch): void {
  dispatch(walletApi.util.prefetch('getWallet', undefined, {}));
  dispatch(walletApi.util.prefetch('getSpinActive', undefined, {}));
  dispatch(playLimitsApi.util.prefetch('getLimits', undefined, {}));
  dispatch(activeBonusApi.util.prefetch('getActiveBonus', undefined, {}));
}

/**
 * Issue 40: an active bonus's turnover and a link to it, so its withdrawal lock is known before a withdrawal is
 * tried. A component of its own: the bonus's answers redraw it, not the home.
 */
const HomeBonusLock = memo(function HomeBonusLock() {
  const { lock, name } = useBonusLock();
  return lock ? <BonusLockNotice lock={lock} name={name} testId="home-bonus-lock" /> : null;
});

/** /user/home (spec §2): balance, widgets, game carousels and the home modals. */
export default function HomePage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const format = useFormatAmount();
  const now = useNow();
  // What the home draws from the wallet query; not isFetching (HomeSection has it): a reload's start (every live
  // balance push, the socket's first join) then redraws the busy flag only, not the home.
  const wallet = useGetWalletQuery(undefined, { selectFromResult: (r) => ({ data: r.data, isLoading: r.isLoading || notStarted(r), isError: r.isError }) });
  const spin = useGetSpinActiveQuery();
  const total = useAppSelector(selectTotalBalance);
  const groups = useAppSelector(selectGameGroups);
  const lastSync = useAppSelector(selectLastSync);
  const [refresh, refreshing] = useRefreshGameBalancesMutation();
  const showRefreshing = useDelayedFlag(refreshing.isLoading);
  const transfer = useModal(TRANSFER_MODAL);
  const withdraw = useModal(WITHDRAW_MODAL);
  const gameAccount = useModal(GAME_ACCOUNT_MODAL);
  const agreement = useModal(AGREEMENT_MODAL);
  const [viewing, setViewing] = useState<string | null>(null);
  const refundGate = useBannerGate({ source: 'refund', modalId: MODAL.refund, title: t('home.widgets.refund') });
  const showRefundBusy = useDelayedFlag(refundGate.busy);
  const inviteGate = useBannerGate({ source: 'invite', modalId: MODAL.invite, title: t('home.widgets.invite') });
  const showInviteBusy = useDelayedFlag(inviteGate.busy);
  const receiving = useAppSelector(selectInviteReceiving);
  const showReceiving = useDelayedFlag(receiving);
  useAgreementPrompt();
  // Issue 15: during a time-out or self-exclusion the deposit and game buttons say so instead of opening.
  useGetLimitsQuery();
  const restriction = useAppSelector((state) => selectRestriction(state, now));
  const { refusals } = useAppSelector(selectHome);
  useEffect(
    () => () => {
      dispatch(homeLeft());
      // A seamless card's launch outcome (SeamlessLaunchNotice) is not said again when the home is shown again.
      dispatch(launchReset());
    },
    [dispatch],
  );
  const refusal = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (refusals > 0) refusal.current?.focus();
  }, [refusals]);
  const refuse = useCallback(() => void dispatch(playRefused()), [dispatch]);
  const unlessRestricted = (action: () => void) => () => (restriction ? refuse() : action());
  const closed = (id: ModalId) => (changed: boolean) => void dispatch(moneyModalClosed(id, changed));
  const openGameAccount = gameAccount.open;
  const viewGame = useCallback(
    (code: string) => {
      if (restriction) return refuse();
      setViewing(code);
      openGameAccount();
    },
    [restriction, refuse, openGameAccount],
  );
  const doRefresh = () => {
    if (!refreshing.isLoading) void refresh();
  };

  const data = wallet.data;
  // The carousels and what follows them are drawn in a render of their own after the amounts (a deferred value
  // renders as a transition: in slices, then committed and laid out in a task of its own). Drawn with the amounts,
  // the wallet's answer was one 50 ms task in Lighthouse's trace (render, style and layout of the whole home).
  // Never in the page's first render either: a deferred value's first value is not deferred, and the wallet is often
  // there by then (requested before the page renders, `prefetch` above): the first commit's style and layout with
  // the carousels' cards and images was a 56 ms task in that trace.
  const painted = useAfterPaint();
  const below = useDeferredValue(painted && !wallet.isLoading ? groups : null);
  // When the balance was read (last_sync: the last successful wallet load or refresh-all, set by the prefs slice in
  // the same action that brings the data, so a loaded balance always has its time); nothing while the first load runs.
  const syncText = lastSync
    ? t('home.lastSync', { time: syncTime(lastSync, now) })
    : wallet.isLoading
      ? ''
      : t('home.neverSynced');

  return (
    <HomeSection>
      <div className="visually-hidden">
        <PageTitle>{t('pages.home')}</PageTitle>
      </div>

      <div className="balance-card">
        <div className="balance-card__top">
          <p className="balance-card__hello" data-testid="player-name">
            {data ? t('home.hello', { name: data.profile.name }) : '\u00a0'}
          </p>
          <button
            type="button"
            className="icon-button balance-card__refresh"
            onClick={doRefresh}
            aria-disabled={refreshing.isLoading}
            aria-label={t('home.refresh')}
            title={t('home.refresh')}
            data-testid="refresh-balance"
          >
            <span className={refreshing.isLoading ? 'spin' : undefined}>
              <RefreshIcon />
            </span>
          </button>
        </div>
        <p className="balance-card__label" id="total-balance-label">
          {t('home.totalBalance')}
        </p>
        {/* Drawn afresh when the first answer comes: the unit after the '…' would otherwise move along the line as the
            amount takes its place (a layout shift). */}
        <p key={wallet.isLoading ? 'loading' : 'loaded'} className="balance-card__total" aria-labelledby="total-balance-label" data-testid="total-balance">
          {wallet.isLoading ? '…' : format(total)} <span className="balance-card__unit">{t('wallet.baht')}</span>
        </p>
        {wallet.isError && !data && (
          <p className="balance-card__error">
            {t('home.loadFailed')}{' '}
            <button type="button" className="link-button" onClick={() => void wallet.refetch()}>
              {t('home.retry')}
            </button>
          </p>
        )}
        <p className="balance-card__meta">
          <span>
            {t('home.walletBalance')}: <span data-testid="wallet-balance">{format(data?.wallet.amount)}</span>
          </span>
          <span data-testid="last-sync" role="status">
            {showRefreshing ? t('home.refreshing') : syncText}
          </span>
        </p>
        <button type="button" className="button button--light balance-card__transfer" onClick={unlessRestricted(transfer.open)} aria-haspopup="dialog" data-testid="open-transfer">
          <TransferIcon />
          {t('home.transfer')}
        </button>
      </div>

      <HomeBonusLock />

      {restriction && refusals > 0 && (
        <p ref={refusal} tabIndex={-1} className="form__error play-refusal" role="alert" data-testid="play-refusal">
          {t('home.playRefused', { reason: errorText(restrictionCode(restriction)), date: formatDateTime(restriction.endsAt) })}{' '}
          <Link to="/user/limits">{t('home.playLimits')}</Link>
        </p>
      )}
      {/* Issue 40 item 11: a running time-out or self-exclusion is said on arrival, not only once a button refuses. */}
      {restriction && refusals === 0 && (
        <p className="play-restriction" role="status" data-testid="play-restriction">
          {t(`home.restricted.${restriction.kind === 'EXCLUSION' ? 'EXCLUSION' : 'TIMEOUT'}`, { date: formatDateTime(restriction.endsAt) })}{' '}
          <Link to="/user/limits">{t('home.playLimits')}</Link>
        </p>
      )}

      <div className="invite-bonus">
        <span id="invite-bonus-amount">
          {t('home.inviteBonus')}: <strong data-testid="invite-amount">{format(data?.invite.amount)}</strong>
        </span>
        <button
          type="button"
          className="button"
          onClick={() => void dispatch(inviteBonusReceived())}
          aria-disabled={receiving || undefined}
          aria-busy={receiving}
          aria-describedby="invite-bonus-amount"
          data-testid="invite-receive"
        >
          {showReceiving ? t('home.receiving') : t('home.receive')}
        </button>
      </div>

      <nav aria-label={t('home.widgets.title')}>
        <ul className="widgets">
          <Widget icon={<DepositIcon />} label={t('home.widgets.deposit')} onClick={unlessRestricted(() => dispatch(modalOpened(MODAL.deposit)))} testId="widget-deposit" />
          <Widget icon={<WithdrawIcon />} label={t('home.widgets.withdraw')} onClick={withdraw.open} testId="widget-withdraw" />
          {/* Keyed apart: when the wheel's answer swaps one for the other, the new one is drawn afresh instead of the
              old one's label changing width in place (a layout shift of the centred label). */}
          {spin.data?.isActive ? (
            <Widget
              key="spin"
              icon={<SpinIcon />}
              label={t('home.widgets.spin')}
              badge={t('home.widgets.coins', { count: data?.profile.coin ?? 0 })}
              quietBadge={(data?.profile.coin ?? 0) <= 0}
              onClick={() => dispatch(modalOpened(MODAL.spinWheel))}
              testId="widget-spin"
            />
          ) : (
            <Widget
              key="refresh-all"
              icon={
                <span className={refreshing.isLoading ? 'spin' : undefined}>
                  <RefreshIcon />
                </span>
              }
              label={showRefreshing ? t('home.refreshing') : t('home.widgets.refreshAll')}
              onClick={doRefresh}
              working={refreshing.isLoading}
              testId="widget-refresh-all"
            />
          )}
          <Widget icon={<InviteIcon />} label={t('home.widgets.invite')} onClick={inviteGate.open} busy={showInviteBusy} testId="widget-invite" />
          <li>
            <Link to="/user/bonus" className="widget" data-testid="widget-bonus">
              <BonusIcon />
              <span className="widget__label">{t('home.widgets.bonus')}</span>
            </Link>
          </li>
          <Widget icon={<RefundIcon />} label={t('home.widgets.refund')} onClick={refundGate.open} busy={showRefundBusy} testId="widget-refund" />
        </ul>
      </nav>

      {/* Issue 42: a seamless card's Play that was refused or whose window the browser refused. */}
      <SeamlessLaunchNotice />

      {below && <HomeCarousels groups={below} onView={viewGame} onRefused={restriction ? refuse : undefined} />}

      {/* Below the carousels, which come with the wallet's answer: shown with them, so it appears in place instead of
          being pushed down the screen when they arrive (a layout shift; docs/client.md "First screen"). */}
      {below && (
        <p className="home__limits">
          <Link to="/user/limits" data-testid="home-limits">
            {t('home.playLimits')}
          </Link>
        </p>
      )}

      {transfer.isOpen && <TransferModal onClose={closed(TRANSFER_MODAL)} />}
      {withdraw.isOpen && <WithdrawModal onClose={closed(WITHDRAW_MODAL)} />}
      {gameAccount.isOpen && viewing && <GameAccountModal code={viewing} onClose={closed(GAME_ACCOUNT_MODAL)} />}
      {agreement.isOpen && (
        <Suspense fallback={null}>
          <AgreementModal onClose={agreement.close} />
        </Suspense>
      )}
      {refundGate.view}
      {inviteGate.view}
    </HomeSection>
  );
}
