import { useTranslation } from 'react-i18next';

import { useAppDispatch } from '../../app/hooks';
import { modalOpened } from '../../app/modalSlice';
import { PageTitle } from '../../components/PageTitle';

/** The statement screen: for now the upload-status button (slip history modal); the paged list comes later. */
export default function StatementPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  return (
    <section className="page page--placeholder">
      <PageTitle>{t('pages.statement')}</PageTitle>
      <button type="button" className="button" onClick={() => dispatch(modalOpened('slipHistory'))} data-testid="statement-slip-status">
        {t('statement.uploadStatus')}
      </button>
      <p className="muted">{t('common.comingSoon')}</p>
    </section>
  );
}
