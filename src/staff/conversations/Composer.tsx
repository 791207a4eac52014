import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { codeOf } from '../requestId';
import type { ReplyBody } from '../staffApi';
import { useStaffI18n } from '../i18n/I18n';
import { addChip, buildReply, MESSAGE_MAX, QUICK_REPLIES_MAX, QUICK_REPLY_TITLE_MAX, type ChipRefusal, type ReplyRefusal } from './reply';

type Problem = { kind: 'reply'; refusal: ReplyRefusal } | { kind: 'chip'; refusal: ChipRefusal } | { kind: 'server'; code: string };

/**
 * The reply box: text, and optionally up to four quick-reply chips sent with it. Enter sends, Shift+Enter is a
 * new line (not while an input method is composing, as Thai and Lao keyboards do). The text stays until the
 * server took it.
 */
export function Composer({ onSend }: { onSend: (body: ReplyBody) => Promise<void> }) {
  const { t, errorText } = useStaffI18n();
  const [text, setText] = useState('');
  const [chips, setChips] = useState<string[]>([]);
  const [chipDraft, setChipDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const chipRef = useRef<HTMLInputElement>(null);
  const ids = { text: useId(), hint: useId(), count: useId(), problem: useId(), chip: useId(), chips: useId() };

  const problemText = (p: Problem): string => {
    if (p.kind === 'server') return errorText(p.code);
    if (p.kind === 'chip') {
      if (p.refusal === 'full') return t('composer.chipsFull', { max: QUICK_REPLIES_MAX });
      if (p.refusal === 'duplicate') return t('composer.chipDuplicate');
      return t('composer.chipEmpty');
    }
    return p.refusal === 'tooLong' ? t('composer.tooLong', { max: MESSAGE_MAX }) : t('composer.empty');
  };

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    if (sending) return;
    const built = buildReply(text, chips);
    if ('refused' in built) {
      setProblem({ kind: 'reply', refusal: built.refused });
      textRef.current?.focus();
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      await onSend(built.body);
      setText('');
      setChips([]);
    } catch (err) {
      setProblem({ kind: 'server', code: codeOf(err) });
    } finally {
      setSending(false);
      textRef.current?.focus();
    }
  };

  const onTextKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const add = () => {
    const result = addChip(chips, chipDraft);
    if ('refused' in result) {
      setProblem({ kind: 'chip', refusal: result.refused });
      chipRef.current?.focus();
      return;
    }
    setChips(result.chips);
    setChipDraft('');
    setProblem(null);
    chipRef.current?.focus();
  };

  const remove = (index: number) => {
    setChips((c) => c.filter((_, i) => i !== index));
    chipRef.current?.focus();
  };

  const full = chips.length >= QUICK_REPLIES_MAX;
  const describedBy = [ids.hint, ids.count, problem?.kind !== 'chip' && problem ? ids.problem : null].filter(Boolean).join(' ');
  return (
    <form className="composer" onSubmit={send} noValidate>
      {problem && (
        <p className="staff-alert staff-alert--error composer__problem" role="alert" id={ids.problem}>
          {problemText(problem)}
        </p>
      )}
      <label htmlFor={ids.text} className="composer__label">
        {t('composer.label')}
      </label>
      <textarea
        ref={textRef}
        id={ids.text}
        className="composer__text"
        rows={3}
        value={text}
        maxLength={MESSAGE_MAX}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onTextKey}
        aria-describedby={describedBy}
        aria-invalid={problem?.kind === 'reply'}
      />
      <div className="composer__meta">
        <span id={ids.hint} className="staff-muted">
          {t('composer.hint')}
        </span>
        <span id={ids.count} className="staff-muted">
          {t('composer.count', { count: text.length, max: MESSAGE_MAX })}
        </span>
      </div>

      {/* Folded away until wanted: on a phone the conversation needs the room. The summary counts the chips,
          so folded chips are not forgotten. */}
      <details className="composer__chips">
        <summary>{t('composer.quickReplies', { count: chips.length, max: QUICK_REPLIES_MAX })}</summary>
        {chips.length === 0 ? (
          <p className="staff-muted composer__none">{t('composer.chipsNone')}</p>
        ) : (
          <ul className="chips" id={ids.chips}>
            {chips.map((chip, i) => (
              <li key={chip} className="chip">
                <span>{chip}</span>
                <button type="button" className="chip__remove" onClick={() => remove(i)} aria-label={t('composer.removeChip', { title: chip })}>
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="composer__chip-add">
          <label htmlFor={ids.chip}>{t('composer.chipTitle')}</label>
          <input
            ref={chipRef}
            id={ids.chip}
            value={chipDraft}
            maxLength={QUICK_REPLY_TITLE_MAX}
            onChange={(e) => setChipDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                add();
              }
            }}
            aria-describedby={problem?.kind === 'chip' ? ids.problem : undefined}
          />
          <button type="button" className="staff-button" onClick={add}>
            {t('composer.addChip')}
          </button>
        </div>
        {full && <p className="staff-muted">{t('composer.chipsFull', { max: QUICK_REPLIES_MAX })}</p>}
      </details>

      <button type="submit" className="staff-button staff-button--primary composer__send" disabled={sending} aria-busy={sending}>
        {sending ? t('composer.sending') : t('composer.send')}
      </button>
    </form>
  );
}
