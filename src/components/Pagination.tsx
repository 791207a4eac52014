import { useTranslation } from 'react-i18next';

import { paginationWindow } from '../lib/format';
import './pagination.css';

interface Props {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** The navigation landmark's name (what is being paged). */
  label?: string;
}

/** Page buttons with the window of spec §9 (3 before the current page, 1 after); nothing for a single page. */
export function Pagination({ page, pages, onPage, label }: Props) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label ?? t('pagination.label')}>
      <ul>
        <li>
          <button type="button" className="pagination__page" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label={t('pagination.previous')}>
            ‹
          </button>
        </li>
        {paginationWindow(page, pages).map((p) => (
          <li key={p}>
            <button
              type="button"
              className="pagination__page"
              aria-current={p === page ? 'page' : undefined}
              aria-label={t('pagination.page', { page: p })}
              onClick={() => onPage(p)}
            >
              {p}
            </button>
          </li>
        ))}
        <li>
          <button type="button" className="pagination__page" onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label={t('pagination.next')}>
            ›
          </button>
        </li>
      </ul>
    </nav>
  );
}
