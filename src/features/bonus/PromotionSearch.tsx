import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { TextField } from '../../components/FormField';
import { useModalWhile } from '../../components/useModalWhile';
import { normalizePromotionCode } from './bonusRules';
import { promotionReceived, promotionSearched, selectPromotionFlow } from './bonusStore';
import { PROMOTION_MODAL, PromotionModal } from './PromotionModal';
import { closed } from './promotionFlow';

/**
 * Spec §2: the promotion-code input (forced to upper case) with a search button, shown while no bonus is
 * active; the search opens the promotion modal. The code is required and upper-cased before find and activate
 * (spec §5).
 */
export function PromotionSearch() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const flow = useAppSelector(selectPromotionFlow);
  useModalWhile(PROMOTION_MODAL, flow.status !== 'idle');
  // The flow lives in the store: leaving the screen (or the search giving way to an active bonus) closes its modal.
  useEffect(() => () => void dispatch(closed()), [dispatch]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = normalizePromotionCode(value);
    if (code === '') {
      setMissing(true);
      input.current?.focus();
      return;
    }
    void dispatch(promotionSearched(code));
  };

  const receive = () => {
    void dispatch(promotionReceived()).then((received) => received && setValue(''));
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
      {flow.status !== 'idle' && <PromotionModal flow={flow} onReceive={receive} onSearchAgain={() => void dispatch(promotionSearched(flow.code))} onClose={() => dispatch(closed())} />}
    </section>
  );
}
