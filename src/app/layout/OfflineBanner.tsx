import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

const subscribe = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
};
const isOnline = () => navigator.onLine;

/**
 * A strip above either layout while the browser says it is offline (navigator.onLine, online/offline events).
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  // The live region stays in the page, so the text that appears in it is announced.
  return (
    <div className={online ? undefined : 'offline-banner'} role="status">
      {!online && <span data-testid="offline-banner">{t('offline.text')}</span>}
    </div>
  );
}
