import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The page's heading (data-testid="page-title") and the document title that goes with it. */
export function PageTitle({ children, documentTitle }: { children: string; documentTitle?: string }) {
  const { t } = useTranslation();
  const title = documentTitle ?? `${children} · ${t('app.name')}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <h1 className="page-title" data-testid="page-title">
      {children}
    </h1>
  );
}
