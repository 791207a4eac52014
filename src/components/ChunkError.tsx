import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { retryImport, type RetryOptions } from '../core/retryImport';

/**
 * What shows in place of a route or modal whose code could not be downloaded (after the retries): a translated
 * message and "Try again", inside the layout, so the top bar, balance and menu stay.
 */
export function ChunkError({ onRetry, busy }: { onRetry: () => void; busy?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="chunk-error" role="alert" data-testid="chunk-error">
      <p className="chunk-error__title">{t('chunkError.title')}</p>
      <p>{t('chunkError.body')}</p>
      <button type="button" className="button" onClick={onRetry} disabled={busy} data-testid="chunk-retry">
        {t('chunkError.retry')}
      </button>
    </div>
  );
}

type Module<P> = { default: ComponentType<P> };

/**
 * The route `lazy` of a page chunk: retried (retryImport); a chunk that still fails becomes a route component
 * that shows ChunkError and loads the chunk again on "Try again", without a full reload. The loaded page is
 * kept, so coming back to the route later shows it at once.
 */
export function lazyRoute<P extends object>(load: () => Promise<Module<P>>, options?: RetryOptions) {
  return async (): Promise<{ Component: ComponentType<P> }> => {
    try {
      return { Component: (await retryImport(load, options)).default };
    } catch {
      let loaded: ComponentType<P> | undefined;
      const Recover = (props: P) => {
        const [Page, setPage] = useState(() => loaded);
        const [busy, setBusy] = useState(false);
        if (Page) return <Page {...props} />;
        const retry = () => {
          setBusy(true);
          retryImport(load, options).then(
            (module) => {
              loaded = module.default;
              setPage(() => module.default);
            },
            () => setBusy(false),
          );
        };
        return <ChunkError onRetry={retry} busy={busy} />;
      };
      return { Component: Recover };
    }
  };
}
