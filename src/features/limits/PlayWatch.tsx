import { useEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import type { LimitsAnswer } from '../../core/playLimits';
import { Modal } from '../../components/Modal';
import { useFormatAmount } from '../../components/useFormatAmount';
import { useModalWhile } from '../../components/useModalWhile';
import { useGetLimitsQuery } from '../../core/playLimits';
import { realityAcknowledged, selectAcknowledged, selectSessionLimitReached } from './realitySlice';
import { minutesPlayed, realityCheckDue } from './rules';
import './limits.css';

export const REALITY_DIALOG = 'realityCheck';
export const SESSION_LIMIT_DIALOG = 'sessionLimit';
/** setTimeout's longest delay; a later change is looked at again then. */
const MAX_TIMER_MS = 2_147_483_647;

/** The server's clock now, from the answer's `session.now` and when the answer arrived (the device may be off). */
function serverNow(answer: LimitsAnswer, receivedAt: number | undefined): number {
  const said = Date.parse(answer.session.now);
  if (!Number.isFinite(said) || receivedAt === undefined) return Date.now();
  return Date.now() + (said - receivedAt);
}

/** Time played as "1 h 5 min" / "5 min" in the player's language. */
function usePlayedText(minutes: number): string {
  const { t } = useTranslation();
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? t('reality.hoursMinutes', { hours, minutes: minutes % 60 }) : t('reality.minutes', { minutes });
}

function RealityDialog({ answer, now, onContinue, onLogout }: { answer: LimitsAnswer; now: number; onContinue: () => void; onLogout: () => void }) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const { session } = answer;
  const played = usePlayedText(minutesPlayed(Date.parse(session.startedAt), now, session.minuteMs));
  const net = session.netResult;
  useModalWhile(REALITY_DIALOG, true);
  return (
    <Modal id={REALITY_DIALOG} title={t('reality.title')} onClose={() => undefined} dismissible={false} role="alertdialog">
      <div className="reality" data-testid="reality-check">
        <p data-testid="reality-played">{t('reality.played', { time: played })}</p>
        <p data-testid="reality-net">
          {t(net < 0 ? 'reality.netLoss' : 'reality.netWin', { amount: format(Math.abs(net)) })}
        </p>
        <p className="muted">{t('reality.hint')}</p>
        <div className="limits-actions">
          <button type="button" className="button button--primary" onClick={onContinue} data-testid="reality-continue">
            {t('reality.continue')}
          </button>
          <button type="button" className="button" onClick={onLogout} data-testid="reality-logout">
            {t('reality.logout')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** SESSION_LIMIT (a refused call, or the session's age past the player's limit): logging out is the only way on. */
export function SessionLimitDialog({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  useModalWhile(SESSION_LIMIT_DIALOG, true);
  return (
    <Modal id={SESSION_LIMIT_DIALOG} title={t('reality.sessionLimitTitle')} onClose={() => undefined} dismissible={false} role="alertdialog">
      <div className="reality" data-testid="session-limit">
        <p>{t('errors.SESSION_LIMIT')}</p>
        <div className="limits-actions">
          <button type="button" className="button button--primary" onClick={onLogout} data-testid="session-limit-logout">
            {t('reality.logout')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * Mounted in the user layout (lazily): the reality check every `realityMinutes` of session time, and the session
 * limit's dialog. Reads GET /api/limits (shared with the other screens), wakes up when the next check is due,
 * and asks GET /api/limits again as the check opens so the dialog shows this session's time and net result.
 */
export default function PlayWatch({ onLogout }: { onLogout: () => void }) {
  const dispatch = useAppDispatch();
  const limits = useGetLimitsQuery();
  const answer = limits.data;
  const startedAtText = answer?.session.startedAt ?? '';
  const acknowledged = useAppSelector((state) => selectAcknowledged(state, startedAtText));
  const refused = useAppSelector(selectSessionLimitReached);
  const [, wake] = useReducer((n: number) => n + 1, 0);
  const refetchedFor = useRef<number | null>(null);

  const now = answer ? serverNow(answer, limits.fulfilledTimeStamp) : Date.now();
  const startedAt = answer ? Date.parse(answer.session.startedAt) : NaN;
  const minuteMs = answer?.session.minuteMs ?? 60_000;
  const check = answer
    ? realityCheckDue({ startedAt, realityMinutes: answer.realityMinutes, minuteMs, now, acknowledged })
    : { due: false, count: 0, dueAt: Infinity };
  const sessionMinutes = answer?.limits.sessionMinutes?.value ?? null;
  const limitAt = sessionMinutes !== null ? startedAt + sessionMinutes * minuteMs : Infinity;
  const limitPassed = refused || now >= limitAt;
  const nextChange = Math.min(check.due ? Infinity : check.dueAt, limitPassed ? Infinity : limitAt);

  useEffect(() => {
    if (!Number.isFinite(nextChange)) return undefined;
    const timer = setTimeout(wake, Math.min(MAX_TIMER_MS, Math.max(0, nextChange - now)));
    return () => clearTimeout(timer);
  }, [nextChange, now]);

  // The check opens: this session's figures afresh (once per check).
  const { refetch } = limits;
  useEffect(() => {
    if (!check.due || limitPassed || refetchedFor.current === check.count) return;
    refetchedFor.current = check.count;
    void refetch();
  }, [check.due, check.count, limitPassed, refetch]);

  if (!answer) return refused ? <SessionLimitDialog onLogout={onLogout} /> : null;
  if (limitPassed) return <SessionLimitDialog onLogout={onLogout} />;
  if (!check.due) return null;
  return (
    <RealityDialog
      answer={answer}
      now={now}
      onContinue={() => dispatch(realityAcknowledged({ startedAt: answer.session.startedAt, count: check.count }))}
      onLogout={onLogout}
    />
  );
}
