import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { standardLanguageTag } from '../../lib/locale';
import { useStaffI18n } from '../i18n/I18n';
import { codeOf } from '../requestId';
import { useAnnounce } from '../shell/Announcer';
import { PageHeading } from '../shell/PageHeading';
import { SeamlessRounds } from '../seamless/SeamlessRounds';
import { useStaffDispatch, useStaffSelector } from '../store';
import { useSetPlayerStatusMutation, type PlayerLookup, type PlayerView } from './api';
import { pageLeft, searchPlayer, selectPlayerSearch } from './searchSlice';
import './players.css';

/** Money as the locale writes it, with the currency's symbol (THB ฿, LAK ₭). */
function useMoney(currency: string) {
  const { locale } = useStaffI18n();
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(standardLanguageTag(locale), { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
  } catch {
    format = new Intl.NumberFormat(standardLanguageTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  return (amount: number) => format.format(amount);
}

/**
 * /staff/players: find a player by the phone they log in with; their status, bank, balances from the ledger and
 * recent movements; set them inactive or active with a reason (written to the audit log by the server).
 */
export function PlayersPage() {
  const { t, errorText } = useStaffI18n();
  const dispatch = useStaffDispatch();
  const search = useStaffSelector(selectPlayerSearch);
  const [phone, setPhone] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const errorId = useId();

  useEffect(() => () => void dispatch(pageLeft()), [dispatch]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!dispatch(searchPlayer(phone))) input.current?.focus();
  };

  const fieldError =
    search.phase === 'empty' ? t('players.phoneRequired') : search.phase === 'failed' && search.code === 'INVALID_USER_INFO' ? t('players.badPhone') : null;

  return (
    <div className="players">
      <PageHeading>{t('players.title')}</PageHeading>
      <form className="players__search" role="search" aria-label={t('players.search')} onSubmit={onSubmit} noValidate>
        <div className="staff-field">
          <label htmlFor="players-phone">{t('players.phone')}</label>
          <input
            id="players-phone"
            ref={input}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            aria-describedby={fieldError ? `${hintId} ${errorId}` : hintId}
            aria-invalid={fieldError ? true : undefined}
          />
          <span id={hintId} className="staff-muted players__hint">
            {t('players.phoneHint')}
          </span>
        </div>
        <button type="submit" className="staff-button staff-button--primary" disabled={search.phase === 'searching'} aria-busy={search.phase === 'searching'}>
          {search.phase === 'searching' ? t('players.searching') : t('players.submit')}
        </button>
      </form>

      {fieldError && (
        <p id={errorId} className="staff-alert staff-alert--error" role="alert">
          {fieldError}
        </p>
      )}
      {search.phase === 'searching' && (
        <p className="staff-muted" role="status">
          {t('players.searching')}
        </p>
      )}
      {search.phase === 'notFound' && (
        <p className="staff-alert staff-alert--info" role="alert">
          {t('players.notFound', { phone: search.phone })}
        </p>
      )}
      {search.phase === 'failed' && search.code !== 'INVALID_USER_INFO' && (
        <p className="staff-alert staff-alert--error" role="alert">
          {errorText(search.code)}
        </p>
      )}
      {search.phase === 'found' && <PlayerCard key={search.requestId} result={search.result} />}
    </div>
  );
}

function PlayerCard({ result }: { result: PlayerLookup }) {
  const { t, formatDateTime } = useStaffI18n();
  const { player, movements } = result;
  const money = useMoney(player.currency);
  const heading = useRef<HTMLHeadingElement>(null);
  // A new result takes the focus, so a screen reader reads who was found.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="player-card" aria-labelledby="player-name">
      <header className="player-card__header">
        <h2 id="player-name" ref={heading} tabIndex={-1}>
          {player.name}
        </h2>
        <span className={`players-badge players-badge--${player.status}`}>
          <span className="visually-hidden">{t('players.statusLabel')}: </span>
          {t(`players.status.${player.status}`)}
        </span>
      </header>
      <dl className="player-card__facts">
        <div>
          <dt>{t('players.id')}</dt>
          <dd>{player.id}</dd>
        </div>
        <div>
          <dt>{t('players.phoneLabel')}</dt>
          <dd>{player.phone}</dd>
        </div>
        <div>
          <dt>{t('players.bank')}</dt>
          <dd>
            {player.bank.code} {player.bank.accountNo}
            <br />
            {player.bank.accountName}
          </dd>
        </div>
        <div>
          <dt>{t('players.since')}</dt>
          <dd>
            <time dateTime={player.createdAt}>{formatDateTime(player.createdAt)}</time>
          </dd>
        </div>
      </dl>

      <StatusControl player={player} />

      <h3>{t('players.balances')}</h3>
      <dl className="player-card__balances">
        <div>
          <dt>{t('players.wallet')}</dt>
          <dd>{money(player.wallet)}</dd>
        </div>
        {player.games.map((g) => (
          <div key={g.code}>
            <dt>{t('players.game', { name: g.name })}</dt>
            <dd>{money(g.balance)}</dd>
          </div>
        ))}
        <div>
          <dt>{t('players.coin')}</dt>
          <dd>{player.coin}</dd>
        </div>
      </dl>
      {player.games.length === 0 && <p className="staff-muted">{t('players.noGames')}</p>}

      {movements.length === 0 ? (
        <p className="staff-muted">{t('players.noMovements')}</p>
      ) : (
        // Focusable, so a table wider than a narrow window can be scrolled sideways from the keyboard.
        <div className="players-movements-wrap" role="region" aria-label={t('players.movements')} tabIndex={0}>
          <table className="players-movements">
            <caption>{t('players.movements')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('players.col.when')}</th>
                <th scope="col">{t('players.col.type')}</th>
                <th scope="col">{t('players.col.route')}</th>
                <th scope="col">{t('players.col.amount')}</th>
                <th scope="col">{t('players.col.status')}</th>
                <th scope="col">{t('players.col.reference')}</th>
              </tr>
            </thead>
            <tbody>
              {movements.map((m) => (
                <tr key={m._id}>
                  <td data-label={t('players.col.when')}>
                    <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                  </td>
                  <td data-label={t('players.col.type')}>{t(`players.type.${m.statementType}`)}</td>
                  <td data-label={t('players.col.route')}>
                    {m.from} → {m.to}
                  </td>
                  <td data-label={t('players.col.amount')} className="players-movements__amount">
                    {money(m.amount)}
                  </td>
                  <td data-label={t('players.col.status')}>
                    <span className={`players-line players-line--${m.status}`}>{t(`players.line.${m.status}`)}</span>
                    {m.note && <span className="players-line__note">{t('players.note', { note: m.note })}</span>}
                  </td>
                  <td data-label={t('players.col.reference')} className="players-movements__ref">
                    {m.reference ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <SeamlessRounds playerId={player.id} />
    </section>
  );
}

type Flow = { open: false } | { open: true; busy: boolean; error: string | null };

/**
 * "Set inactive" / "Set active": a confirmation step with a required reason; Escape or Cancel goes back. The card
 * shows the new status (or a player found gone) from the search slice, which follows the endpoint's answer.
 */
function StatusControl({ player }: { player: PlayerView }) {
  const { t, errorText } = useStaffI18n();
  const announce = useAnnounce();
  const [setStatus] = useSetPlayerStatusMutation();
  const [flow, setFlow] = useState<Flow>({ open: false });
  const [reason, setReason] = useState('');
  const toggle = useRef<HTMLButtonElement>(null);
  const reasonBox = useRef<HTMLTextAreaElement>(null);
  const returnFocus = useRef(false);
  const questionId = useId();
  const errorId = useId();

  const opened = flow.open;
  useEffect(() => {
    if (opened) reasonBox.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      toggle.current?.focus();
    }
  }, [opened]);

  if (player.status === 'gone') return <p className="staff-muted players__gone">{t('players.goneNote')}</p>;

  const to = player.status === 'active' ? 'inactive' : 'active';
  const close = () => {
    returnFocus.current = true;
    setReason('');
    setFlow({ open: false });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && flow.open && !flow.busy) {
      e.preventDefault();
      close();
    }
  };
  const onConfirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!flow.open || flow.busy) return;
    const why = reason.trim();
    if (!why) {
      setFlow({ open: true, busy: false, error: 'REASON_REQUIRED' });
      reasonBox.current?.focus();
      return;
    }
    setFlow({ open: true, busy: true, error: null });
    try {
      await setStatus({ id: player.id, status: to, reason: why }).unwrap();
      announce(t(`players.changed.${to}`, { name: player.name }));
      close();
    } catch (err) {
      const code = codeOf(err);
      setFlow({ open: true, busy: false, error: code });
      // The confirm button was disabled while busy: bring the focus back to the reason to correct or retry.
      requestAnimationFrame(() => reasonBox.current?.focus());
    }
  };

  if (!flow.open) {
    return (
      <div className="players__actions">
        <button ref={toggle} type="button" className={`staff-button ${to === 'inactive' ? 'staff-button--danger' : ''}`} onClick={() => setFlow({ open: true, busy: false, error: null })}>
          {to === 'inactive' ? t('players.setInactive') : t('players.setActive')}
        </button>
      </div>
    );
  }
  return (
    <form className="players-confirm" role="group" aria-labelledby={questionId} onKeyDown={onKeyDown} onSubmit={(e) => void onConfirm(e)} noValidate aria-busy={flow.busy}>
      <p id={questionId}>{t(to === 'inactive' ? 'players.confirmInactive' : 'players.confirmActive', { name: player.name })}</p>
      <div className="staff-field">
        <label htmlFor="players-reason">{t('players.reason')}</label>
        <textarea
          id="players-reason"
          ref={reasonBox}
          rows={2}
          maxLength={500}
          required
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          readOnly={flow.busy}
          aria-invalid={flow.error === 'REASON_REQUIRED' ? true : undefined}
          aria-describedby={flow.error ? errorId : undefined}
        />
      </div>
      {flow.error && (
        <p id={errorId} className="staff-alert staff-alert--error" role="alert">
          {errorText(flow.error)}
        </p>
      )}
      <div className="players-confirm__actions">
        <button type="submit" className={`staff-button ${to === 'inactive' ? 'staff-button--danger' : 'staff-button--primary'}`} disabled={flow.busy}>
          {flow.busy ? t('players.saving') : `${t('players.confirm')}: ${to === 'inactive' ? t('players.setInactive') : t('players.setActive')}`}
        </button>
        <button type="button" className="staff-button" onClick={close} disabled={flow.busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
