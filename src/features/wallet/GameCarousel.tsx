import { useId, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec §9: the game carousels show 3 cards at a time. */
export const CARDS_PER_PAGE = 3;
const SWIPE_PX = 40;

interface Props<T> {
  title: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  testId?: string;
}

/**
 * A paged row of cards, 3 at a time: previous/next buttons, arrow keys and a swipe turn the page, and the
 * page number is announced. Lighter than a carousel library and fully keyboard-operable.
 */
export function GameCarousel<T>({ title, items, itemKey, renderItem, testId }: Props<T>) {
  const { t } = useTranslation();
  const titleId = useId();
  const [page, setPage] = useState(0);
  const swipeStart = useRef<number | null>(null);
  const pages = Math.max(1, Math.ceil(items.length / CARDS_PER_PAGE));
  const current = Math.min(page, pages - 1);
  const visible = items.slice(current * CARDS_PER_PAGE, current * CARDS_PER_PAGE + CARDS_PER_PAGE);
  // The buttons stay focusable at the ends (aria-disabled): a disabled button would drop the keyboard focus.
  const go = (to: number) => setPage(Math.min(Math.max(0, to), pages - 1));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(current + 1);
    else if (event.key === 'ArrowLeft') go(current - 1);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = event.pointerType === 'mouse' ? null : event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (swipeStart.current === null) return;
    const moved = event.clientX - swipeStart.current;
    swipeStart.current = null;
    if (Math.abs(moved) >= SWIPE_PX) go(moved < 0 ? current + 1 : current - 1);
  };

  return (
    <section className="carousel" aria-labelledby={titleId} aria-roledescription={t('home.carousel.role')} data-testid={testId} onKeyDown={onKeyDown}>
      <div className="carousel__header">
        <h2 id={titleId} className="section-title">
          {title}
        </h2>
        {pages > 1 && (
          <div className="carousel__controls">
            <button type="button" className="icon-button carousel__button" onClick={() => go(current - 1)} aria-disabled={current === 0} aria-label={t('home.carousel.previous')}>
              <span aria-hidden="true">‹</span>
            </button>
            <span className="carousel__page" aria-live="polite">
              {t('home.carousel.page', { page: current + 1, pages })}
            </span>
            <button type="button" className="icon-button carousel__button" onClick={() => go(current + 1)} aria-disabled={current === pages - 1} aria-label={t('home.carousel.next')}>
              <span aria-hidden="true">›</span>
            </button>
          </div>
        )}
      </div>
      <ul className="carousel__row" onPointerDown={onPointerDown} onPointerUp={onPointerUp}>
        {visible.map((item) => (
          <li key={itemKey(item)} className="carousel__item">
            {renderItem(item)}
          </li>
        ))}
      </ul>
    </section>
  );
}
