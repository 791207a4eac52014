import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Receipt } from '../../components/Receipt';
import { selectAccountNames } from '../../components/receipt';
import { formatAmount } from '../../lib/format';
import { SlipWindowNote } from './ConfiguredNotes';
import { useGetSlipLookupQuery, useUploadSlipMutation } from './depositApi';
import { slipAdviceKey, slipUploadResult, type SlipUploadResult } from './slipResult';
import { useKeepFocus } from './useKeepFocus';

/**
 * Slip upload (spec §1, §7): a photo straight from the camera on phones or a picture from the device,
 * sent as multipart field `file` with the 5-minute upload timeout; the result in the player's language.
 */
export function SlipUpload({ id }: { id?: string } = {}) {
  const { t, i18n } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const bank = useAppSelector(selectAccountNames).bank;
  const { data: setting } = useGetSlipLookupQuery();
  const [upload, { isLoading }] = useUploadSlipMutation();
  const [result, setResult] = useState<SlipUploadResult | null>(null);
  const titleId = useId();
  const closed = setting?.isOpen === false;
  const section = useRef<HTMLElement>(null);
  useKeepFocus(section, `${isLoading}:${result?.kind ?? ''}`);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same picture picked again must still fire change.
    input.value = '';
    if (!file || isLoading) return;
    setResult(null);
    const answer = await upload(file);
    setResult(slipUploadResult(answer, (key) => i18n.exists(key)));
  };

  const picker = (camera: boolean) => (
    <label className={`button file-button${isLoading || closed ? ' file-button--disabled' : ''}`}>
      <input
        type="file"
        accept="image/*"
        {...(camera ? { capture: 'environment' as const } : {})}
        className="visually-hidden"
        onChange={onPick}
        disabled={isLoading || closed}
        data-testid={camera ? 'slip-camera' : 'slip-file'}
      />
      {camera ? t('deposit.slip.camera') : t('deposit.slip.choose')}
    </label>
  );

  return (
    <section ref={section} id={id} tabIndex={-1} className="deposit__section slip-upload" aria-labelledby={titleId}>
      <h3 id={titleId} className="deposit__subtitle">
        {t('deposit.slip.title')}
      </h3>
      <SlipWindowNote />
      {closed && (
        <p className="alert alert--error" data-testid="slip-closed">
          {setting?.closeFrom && setting?.closeTo
            ? t('deposit.slip.closedHours', { from: setting.closeFrom, to: setting.closeTo })
            : t('deposit.slip.closed')}
        </p>
      )}
      <div className="slip-upload__pickers">
        {picker(true)}
        {picker(false)}
      </div>
      <div role="status" aria-live="polite" className="slip-upload__status" data-testid="slip-status">
        {isLoading && (
          <div className="slip-upload__progress">
            <progress aria-label={t('deposit.slip.uploading')} />
            <span>{t('deposit.slip.uploading')}</span>
          </div>
        )}
        {!isLoading && result?.kind === 'credited' && (
          // Issue 12: a credited slip ends on its receipt (the money came from the player's registered bank).
          <Receipt
            receipt={{ kind: 'deposit', amount: result.amount, from: bank?.code ?? '-', to: 'WALLET', at: result.at, reference: result.reference, status: 'SUCCESS' }}
            note={<span data-testid="slip-result">{t('deposit.slip.credited', { amount: formatAmount(result.amount, locale) })}</span>}
            onClose={() => setResult(null)}
            takeFocus={false}
          />
        )}
        {!isLoading && result?.kind === 'pending' && (
          <p className="alert" data-testid="slip-result">
            {t('deposit.slip.pending')}
          </p>
        )}
        {!isLoading && result?.kind === 'review' && (
          <div className="alert" data-testid="slip-result" data-kind="review">
            <p>{t('deposit.slip.review', { reason: t(`deposit.qr.reviewReason.${result.code === 'NOT_MATCH' ? 'SLIP_NOT_MATCH' : 'DEPOSIT_LIMIT'}`) })}</p>
            <p>{t('deposit.slip.reviewNext')}</p>
          </div>
        )}
        {!isLoading && result?.kind === 'refused' && (
          <div className="alert alert--error" data-testid="slip-result" data-kind="refused">
            <p>{t('deposit.slip.refused', { reason: t(result.textKey) })}</p>
            <p data-testid="slip-advice">{t(slipAdviceKey(result.code, (key) => i18n.exists(key)))}</p>
          </div>
        )}
      </div>
    </section>
  );
}
