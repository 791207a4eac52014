import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import type { Restriction, RestrictionKind } from '../../core/playLimits';
import type { AppDispatch, RootState } from '../../app/store';
import { Modal } from '../../components/Modal';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useModalWhile } from '../../components/useModalWhile';
import { formatDateTime } from '../../lib/format';
import { limitsApi } from './limitsApi';
import {
  confirmCancelled,
  firstConfirmed,
  restrictionChosen,
  resultDismissed,
  selectRestrictionFlow,
  type RestrictionFlow,
} from './restrictionFlow';
import { RESTRICTION_PERIODS, restrictionEnd } from './rules';

export const RESTRICTION_DIALOG = 'restrictionConfirm';

/** The second confirmation was accepted: send the request, only from that step (the machine then submits). */
export const restrictionSubmitted = () => (dispatch: AppDispatch, getState: () => RootState) => {
  const flow = getState().restrictionFlow;
  if (flow.status !== 'confirm2') return null;
  return dispatch(limitsApi.endpoints.takeRestriction.initiate({ kind: flow.kind, period: flow.period }, { track: false }));
};

const KIND_KEY: Record<RestrictionKind, string> = { TIMEOUT: 'timeout', EXCLUSION: 'exclusion' };

function ConfirmDialog({ flow }: { flow: Exclude<RestrictionFlow, { status: 'idle' }> }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const key = KIND_KEY[flow.kind];
  const period = t(`limits.periods.${flow.period}`);
  const submitting = flow.status === 'submitting';
  const showBusy = useDelayedFlag(submitting);
  useModalWhile(RESTRICTION_DIALOG, true);
  const close = () => dispatch(flow.status === 'done' || flow.status === 'failed' ? resultDismissed() : confirmCancelled());
  const end = 'endsAt' in flow ? formatDateTime(flow.endsAt) : '';
  const box = useRef<HTMLDivElement>(null);
  const step = submitting ? 'confirm2' : flow.status;
  // Each step replaces the buttons: its first one takes the focus, so the keyboard stays in the dialog.
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('button:not([disabled])')?.focus();
  }, [step]);

  return (
    <Modal id={RESTRICTION_DIALOG} title={t(`limits.restriction.${key}Title`, { period })} onClose={close}>
      <div ref={box} className="restriction-confirm" data-testid="restriction-dialog" data-step={flow.status}>
        {flow.status === 'confirm1' && (
          <>
            <p data-testid="restriction-step1">{t(`limits.restriction.${key}Step1`, { period })}</p>
            <p>{t('limits.restriction.final')}</p>
            <div className="limits-actions">
              <button
                type="button"
                className="button button--primary"
                onClick={() => dispatch(firstConfirmed({ endsAt: restrictionEnd(flow.period, Date.now()).toISOString() }))}
                data-testid="restriction-confirm-1"
              >
                {t('limits.restriction.continue')}
              </button>
              <button type="button" className="button" onClick={close} data-testid="restriction-cancel">
                {t('limits.restriction.cancel')}
              </button>
            </div>
          </>
        )}
        {(flow.status === 'confirm2' || flow.status === 'submitting') && (
          <>
            <p data-testid="restriction-step2">{t(`limits.restriction.${key}Step2`, { period, date: end })}</p>
            <div className="limits-actions">
              <button
                type="button"
                className="button button--primary"
                onClick={() => void dispatch(restrictionSubmitted())}
                aria-busy={submitting}
                aria-disabled={submitting || undefined}
                data-testid="restriction-confirm-2"
              >
                {showBusy ? t('limits.restriction.sending') : t(`limits.restriction.${key}Confirm`, { date: end })}
              </button>
              <button type="button" className="button" onClick={close} disabled={submitting} data-testid="restriction-cancel">
                {t('limits.restriction.cancel')}
              </button>
            </div>
          </>
        )}
        {flow.status === 'done' && (
          <>
            <p role="status" data-testid="restriction-done">
              {t(`limits.restriction.${key}Done`, { date: end })}
            </p>
            <button type="button" className="button button--primary" onClick={close} data-testid="restriction-ok">
              {t('limits.restriction.ok')}
            </button>
          </>
        )}
        {flow.status === 'failed' && (
          <>
            <p className="form__error" role="alert" data-testid="restriction-error">
              {errorText(flow.code)}
            </p>
            <button type="button" className="button button--primary" onClick={close} data-testid="restriction-ok">
              {t('limits.restriction.ok')}
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}

/** The running restriction (if any), and the time-out and self-exclusion choices, each confirmed twice. */
export function RestrictionSection({ running }: { running: Restriction | null }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const flow = useAppSelector(selectRestrictionFlow);
  // Leaving the page drops a confirmation under way (a request already sent still gets its answer).
  useEffect(
    () => () => {
      dispatch(confirmCancelled());
      dispatch(resultDismissed());
    },
    [dispatch],
  );
  return (
    <section className="limits__section" aria-labelledby="limits-restriction-title">
      <h2 id="limits-restriction-title">{t('limits.restriction.title')}</h2>
      {running ? (
        <p className="limits__running" data-testid="restriction-running">
          {t(`limits.restriction.${KIND_KEY[running.kind]}Running`, { date: formatDateTime(running.endsAt) })}
        </p>
      ) : (
        <p className="muted">{t('limits.restriction.none')}</p>
      )}
      {(Object.keys(RESTRICTION_PERIODS) as RestrictionKind[]).map((kind) => (
        <div key={kind} className="limits__choice" role="group" aria-labelledby={`restriction-${kind}`}>
          <h3 id={`restriction-${kind}`}>{t(`limits.restriction.${KIND_KEY[kind]}`)}</h3>
          <p className="muted">{t(`limits.restriction.${KIND_KEY[kind]}Explain`)}</p>
          <div className="limits-actions">
            {RESTRICTION_PERIODS[kind].map((period) => (
              <button
                key={period}
                type="button"
                className="button"
                aria-haspopup="dialog"
                onClick={() => dispatch(restrictionChosen({ kind, period }))}
                data-testid={`${KIND_KEY[kind]}-${period}`}
              >
                {t(`limits.periods.${period}`)}
              </button>
            ))}
          </div>
        </div>
      ))}
      {flow.status !== 'idle' && <ConfirmDialog flow={flow} />}
    </section>
  );
}
