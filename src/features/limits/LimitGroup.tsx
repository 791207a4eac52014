import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { classifyError } from '../../core/apiErrors';
import { useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import type { LimitKind, LimitsAnswer } from '../../core/playLimits';
import { selectLocale } from '../../core/prefs';
import { amountExample, writeAmount } from '../../lib/amountInput';
import { useSetLimitMutation } from './limitsApi';
import { LimitRow, type Outcome } from './LimitRow';
import { MAX_MONEY_LIMIT, parseLimitInput } from './rules';

type PerKind<T> = Partial<Record<LimitKind, T>>;

/**
 * A group of limits (deposit, loss, session) as one form with one save (issue 40 item 11: seven forms with seven
 * save buttons read as seven separate things to do). Saving sends every filled row, each as its own change (the
 * server takes one limit a call, each with its own 24-hour rule); empty rows are left as they are. Nothing is sent
 * while any filled row is refused; each row says its own outcome. Removing stays a button per row.
 */
export function LimitGroup({ group, kinds, answer }: { group: string; kinds: LimitKind[]; answer: LimitsAnswer }) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const max = writeAmount(MAX_MONEY_LIMIT * 100, locale);
  const [texts, setTexts] = useState<PerKind<string>>({});
  const [errors, setErrors] = useState<PerKind<string | null>>({});
  const [outcomes, setOutcomes] = useState<PerKind<Outcome>>({});
  const [save] = useSetLimitMutation();
  const [busy, setBusy] = useState(false);

  const send = async (changes: { kind: LimitKind; value: number | null }[]) => {
    setBusy(true);
    setOutcomes((current) => ({ ...current, ...Object.fromEntries(changes.map(({ kind }) => [kind, null])) }));
    // One after the other: each answer is the whole limits state, and the last one is what the page shows.
    for (const { kind, value } of changes) {
      try {
        const next: LimitsAnswer = await save({ kind, value }).unwrap();
        const pending = next?.limits?.[kind]?.pending;
        setOutcomes((current) => ({ ...current, [kind]: pending ? { kind: 'scheduled', at: pending.effectiveAt } : { kind: 'saved' } }));
        if (value !== null) setTexts((current) => ({ ...current, [kind]: '' }));
      } catch (error) {
        const failure = classifyError(error as Parameters<typeof classifyError>[0]);
        // A session or 'gone' outcome is handled app-wide (the player is on the way elsewhere).
        setOutcomes((current) => ({ ...current, [kind]: failure.kind === 'message' ? { kind: 'error', text: errorText(failure.code) } : null }));
      }
    }
    setBusy(false);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const filled = kinds.filter((kind) => (texts[kind] ?? '').trim() !== '');
    // Nothing typed: the first row says a value is needed (as a single limit's save did).
    const checked = filled.length > 0 ? filled : kinds.slice(0, 1);
    const found: PerKind<string | null> = {};
    const changes: { kind: LimitKind; value: number }[] = [];
    for (const kind of checked) {
      const parsed = parseLimitInput(kind, texts[kind] ?? '', locale);
      if (parsed.ok) changes.push({ kind, value: parsed.value });
      else found[kind] = parsed.error === 'ambiguous' ? t('wallet.ambiguousAmount', amountExample(locale)) : t(`limits.invalid.${parsed.error}`, { max });
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    void send(changes);
  };

  const title = t(`limits.groups.${group}`);
  return (
    <form className="limits__section" onSubmit={onSubmit} noValidate aria-labelledby={`limits-${group}-title`} data-testid={`limits-${group}`}>
      <h2 id={`limits-${group}-title`}>{title}</h2>
      <p className="muted">{t(`limits.groups.${group}Explain`)}</p>
      <ul className="limits__list">
        {kinds.map((kind) => (
          <LimitRow
            key={kind}
            kind={kind}
            limit={answer.limits[kind] ?? { value: null, pending: null }}
            usage={kind === 'sessionMinutes' ? null : (answer.usage[kind] ?? 0)}
            text={texts[kind] ?? ''}
            onText={(text) => {
              setTexts((current) => ({ ...current, [kind]: text }));
              setErrors((current) => ({ ...current, [kind]: null }));
            }}
            fieldError={errors[kind] ?? null}
            outcome={outcomes[kind] ?? null}
            busy={busy}
            onRemove={() => {
              if (!busy) void send([{ kind, value: null }]);
            }}
          />
        ))}
      </ul>
      <div className="limits-actions">
        <button type="submit" className="button button--primary" aria-busy={busy} aria-label={t('limits.saveOf', { name: title })} data-testid={`limits-${group}-save`}>
          {t('limits.save')}
        </button>
      </div>
    </form>
  );
}
