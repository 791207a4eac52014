import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { canShareFiles, downloadFile, qrCardLines, renderQrCard, type QrCardInput } from './qrCard';

type Failure = 'save' | 'share' | null;

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/**
 * "Save QR" (a PNG with the amount, bank and expiry under the code, as a download) and, where the browser
 * shares files, "Share" (Web Share with that PNG, e.g. straight into the bank app). The player then pays the
 * QR from the same phone, from the gallery. A cancelled share says nothing; any other failure says so.
 */
export function QrSaveActions({ input }: { input: QrCardInput }) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const [failed, setFailed] = useState<Failure>(null);
  const [busy, setBusy] = useState(false);
  const saving = useRef(false);
  const sharing = useMemo(canShareFiles, []);
  const { payload, svg, bank, bankName, amount, expiresAt } = input;
  const lines = useMemo(() => qrCardLines({ bankName, amount, expiresAt }, locale, t), [bankName, amount, expiresAt, locale, t]);
  const linesKey = lines.join('\n');
  // The card for sharing is drawn ahead: navigator.share needs the tap's user activation, which a few seconds
  // of font loading and drawing after the tap may already have used up (Safari's is short).
  const ready = useRef<{ key: string; file: Promise<File> } | null>(null);
  const cardKey = `${payload ?? svg}\n${bank}\n${amount}\n${linesKey}`;
  const inputRef = useRef(input);
  inputRef.current = input;
  const card = () => {
    if (ready.current?.key === cardKey) return ready.current.file;
    const file = renderQrCard(inputRef.current, lines);
    ready.current = { key: cardKey, file };
    // Reported where it is used; a failed drawing is tried again on the next tap.
    file.catch(() => {
      if (ready.current?.file === file) ready.current = null;
    });
    return file;
  };
  useEffect(() => {
    if (sharing) card();
    // card() reads cardKey; nothing else it uses changes the drawing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sharing, cardKey]);

  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const save = async () => {
    if (saving.current) return;
    saving.current = true;
    setFailed(null);
    setBusy(true);
    try {
      downloadFile(await card());
    } catch {
      if (mounted.current) setFailed('save');
    } finally {
      saving.current = false;
      if (mounted.current) setBusy(false);
    }
  };

  const share = async () => {
    setFailed(null);
    try {
      const file = await card();
      await navigator.share({ files: [file], title: lines[0] });
    } catch (error) {
      if (!isAbort(error) && mounted.current) setFailed('share');
    }
  };

  return (
    <div className="qr__save">
      <p className="deposit__note">{t('deposit.qr.save.hint')}</p>
      <div className="qr__save-actions">
        <button type="button" className="button button--primary" onClick={save} aria-busy={busy} data-testid="qr-save">
          {busy ? t('deposit.qr.save.saving') : t('deposit.qr.save.button')}
        </button>
        {sharing && (
          <button type="button" className="button" onClick={share} data-testid="qr-share">
            {t('deposit.qr.save.share')}
          </button>
        )}
      </div>
      {failed && (
        <p role="alert" className="field__error" data-testid="qr-save-error">
          {failed === 'save' ? t('deposit.qr.save.saveFailed') : t('deposit.qr.save.shareFailed')}
        </p>
      )}
    </div>
  );
}
