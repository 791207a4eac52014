import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { classifyError, errorCode } from '../../core/apiErrors';
import { errorText } from '../../core/notify';
import type { LimitKind, LimitsAnswer } from '../../core/playLimits';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { formatDateTime } from '../../lib/format';
import { useGetLimitsHistoryQuery, useGetLimitsQuery, useSetRealityMutation } from './limitsApi';
import { LimitGroup } from './LimitGroup';
import { RestrictionSection } from './RestrictionSection';
import { REALITY_CHOICES } from './rules';
import { historyText, useLimitValueText } from './texts';
import { EmptyState } from '../../components/EmptyState';
import { Skeleton } from '../../components/Skeleton';
import './limits.css';

const GROUPS: { key: string; kinds: LimitKind[] }[] = [
  { key: 'deposit', kinds: ['depositDay', 'depositWeek', 'depositMonth'] },
  { key: 'loss', kinds: ['lossDay', 'lossWeek', 'lossMonth'] },
  { key: 'session', kinds: ['sessionMinutes'] },
];

function RealityForm({ current }: { current: number }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<number | null>(null);
  const [save, saving] = useSetRealityMutation();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const chosen = choice ?? current;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving.isLoading) return;
    setOutcome(null);
    save({ minutes: chosen })
      .unwrap()
      .then(
        () => {
          setChoice(null);
          setOutcome({ ok: true, text: t('limits.saved') });
        },
        (error: unknown) => {
          const failure = classifyError(error as Parameters<typeof classifyError>[0]);
          setOutcome(failure.kind === 'message' ? { ok: false, text: errorText(failure.code) } : null);
        },
      );
  };
  return (
    <form className="limits__section" onSubmit={onSubmit} aria-labelledby="limits-reality-title">
      <h2 id="limits-reality-title">{t('limits.reality.title')}</h2>
      <p className="muted">{t('limits.reality.explain')}</p>
      <fieldset className="limits__radios">
        <legend>{t('limits.reality.every')}</legend>
        {REALITY_CHOICES.map((minutes) => (
          <label key={minutes} className="field--inline">
            <input
              type="radio"
              name="realityMinutes"
              value={minutes}
              checked={chosen === minutes}
              onChange={() => setChoice(minutes)}
              data-testid={`reality-${minutes}`}
            />
            {t('limits.minutesValue', { count: minutes })}
          </label>
        ))}
      </fieldset>
      <div className="limits-actions">
        <button
          type="submit"
          className="button button--primary"
          aria-busy={saving.isLoading}
          aria-label={t('limits.saveOf', { name: t('limits.reality.title') })}
          data-testid="reality-save"
        >
          {t('limits.save')}
        </button>
      </div>
      <p role="status" data-testid="reality-status">
        {outcome?.ok ? outcome.text : ''}
      </p>
      <p className="form__error" role="alert" data-testid="reality-error">
        {outcome && !outcome.ok ? outcome.text : ''}
      </p>
    </form>
  );
}

function History() {
  const { t } = useTranslation();
  const valueText = useLimitValueText();
  const [page, setPage] = useState(1);
  const history = useGetLimitsHistoryQuery({ page }, { refetchOnMountOrArgChange: true });
  const showLoading = useDelayedFlag(history.isFetching);
  const items = history.data?.items ?? [];
  return (
    <section className="limits__section" aria-labelledby="limits-history-title" aria-busy={history.isFetching}>
      <h2 id="limits-history-title">{t('limits.history.title')}</h2>
      {showLoading && (
        <Skeleton testId="limits-history-loading" />
      )}
      {history.isError && (
        <p className="form__error" role="alert">
          {errorText(errorCode(history.error))}{' '}
          <button type="button" className="link-button" onClick={() => void history.refetch()}>
            {t('limits.retry')}
          </button>
        </p>
      )}
      {history.data && items.length === 0 && (
        <EmptyState text={t('limits.history.empty')} testId="limits-history-empty" />
      )}
      {items.length > 0 && (
        <ol className="limits-history" data-testid="limits-history">
          {items.map((item) => (
            <li key={item.id} className="limits-history__item" data-testid="limits-history-item" data-action={item.action}>
              <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
              <span>{historyText(item, (key, options) => t(key, options) as string, valueText)}</span>
            </li>
          ))}
        </ol>
      )}
      <Pagination page={page} pages={history.data?.totalPages ?? 0} onPage={setPage} label={t('limits.history.pages')} />
    </section>
  );
}

function Limits({ answer }: { answer: LimitsAnswer }) {
  return (
    <>
      {GROUPS.map((group) => (
        <LimitGroup key={group.key} group={group.key} kinds={group.kinds} answer={answer} />
      ))}
      <RealityForm current={answer.realityMinutes} />
    </>
  );
}

/**
 * /user/limits (issue 15): the player's deposit, loss and session limits with what was used, changes waiting
 * their 24 hours, the reality-check interval, a time-out or self-exclusion (each confirmed twice) and the audit
 * trail. Reached from the profile page and the bottom of the home page.
 */
export default function LimitsPage() {
  const { t } = useTranslation();
  const limits = useGetLimitsQuery(undefined, { refetchOnMountOrArgChange: true });
  const showLoading = useDelayedFlag(limits.isLoading);
  const answer = limits.data;
  const running = answer?.restriction ?? null;
  return (
    <section className="page page--narrow limits" aria-busy={limits.isFetching}>
      <PageTitle>{t('pages.limits')}</PageTitle>
      <p className="muted">{t('limits.intro')}</p>
      {showLoading && (
        <Skeleton testId="limits-loading" />
      )}
      {limits.isError && !answer && (
        <p className="form__error" role="alert" data-testid="limits-load-error">
          {errorText(errorCode(limits.error))}{' '}
          <button type="button" className="link-button" onClick={() => void limits.refetch()}>
            {t('limits.retry')}
          </button>
        </p>
      )}
      {answer && (
        <>
          <Limits answer={answer} />
          <RestrictionSection running={running} />
        </>
      )}
      <History />
    </section>
  );
}
