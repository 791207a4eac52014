import { useReducer, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode } from '../../core/apiErrors';
import { toastSuccess } from '../../core/notify';
import { TextField } from '../../components/FormField';
import { useFormatAmount } from '../../components/useFormatAmount';
import { useModalWhile } from '../../components/useModalWhile';
import { useActivatePromotionMutation, useLazyFindPromotionQuery } from './bonusApi';
import { normalizePromotionCode } from './bonusRules';
import { PROMOTION_MODAL, PromotionModal } from './PromotionModal';
import {
  closed,
  initialPromotionFlow,
  promotionFlowReducer,
  receiveAnswered,
  receiveRefused,
  receiveStarted,
  searchAnswered,
  searchRefused,
  searchStarted,
  type PromotionFlow,
} from './promotionFlow';

type FailedCall = Parameters<typeof errorCode>[0];

/**
 * Spec §2: the promotion-code input (forced to upper case) with a search button, shown while no bonus is
 * active; the search opens the promotion modal. The code is required and upper-cased before find and activate
 * (spec §5).
 */
export function PromotionSearch() {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const [find] = useLazyFindPromotionQuery();
  const [activate] = useActivatePromotionMutation();
  const [flow, send] = useReducer(promotionFlowReducer, initialPromotionFlow);
  const current = useRef<PromotionFlow>(flow);
  current.current = flow;
  useModalWhile(PROMOTION_MODAL, flow.status !== 'idle');

  const apply = (event: Parameters<typeof promotionFlowReducer>[1]) => {
    current.current = promotionFlowReducer(current.current, event);
    send(event);
  };

  const search = (code: string) => {
    const state = current.current;
    if (state.status !== 'idle' && state.status !== 'notFound' && state.status !== 'searchFailed') return;
    const request = find(code);
    const { requestId } = request;
    apply(searchStarted({ code, requestId }));
    request.unwrap().then(
      // Spec §7: the promotion, or nothing.
      (promotion) => apply(promotion && promotion.code ? searchAnswered({ requestId, promotion }) : searchRefused({ requestId, error: 'NO_PROMOTION' })),
      (error: unknown) => apply(searchRefused({ requestId, error: errorCode(error as FailedCall) })),
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = normalizePromotionCode(value);
    if (code === '') {
      setMissing(true);
      input.current?.focus();
      return;
    }
    search(code);
  };

  const receive = () => {
    const state = current.current;
    if (state.status !== 'found' && state.status !== 'receiveFailed') return;
    const request = activate(state.code);
    const { requestId } = request;
    apply(receiveStarted({ requestId }));
    request.unwrap().then(
      (answer) => {
        apply(receiveAnswered({ requestId }));
        setValue('');
        // Issue 40 item 11: what the promotion credited, not a bare "saved".
        toastSuccess(t('bonus.promotion.credited', { amount: format(answer.amount) }));
      },
      (error: unknown) => apply(receiveRefused({ requestId, error: errorCode(error as FailedCall) })),
    );
  };

  return (
    <section className="bonus-promotion" aria-labelledby="bonus-promotion-title">
      <h2 id="bonus-promotion-title" className="bonus-section-title">
        {t('bonus.promotion.heading')}
      </h2>
      <form className="bonus-promotion__form" onSubmit={onSubmit} noValidate role="search">
        <TextField
          ref={input}
          label={t('bonus.promotion.label')}
          name="promotionCode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={value}
          onChange={(event) => {
            setValue(event.target.value.toUpperCase());
            setMissing(false);
          }}
          required
          error={missing ? t('bonus.promotion.required') : null}
          data-testid="promotion-code"
        />
        <button type="submit" className="button button--primary" aria-haspopup="dialog" data-testid="promotion-search">
          {t('bonus.promotion.search')}
        </button>
      </form>
      {flow.status !== 'idle' && <PromotionModal flow={flow} onReceive={receive} onSearchAgain={() => search(flow.code)} onClose={() => apply(closed())} />}
    </section>
  );
}
