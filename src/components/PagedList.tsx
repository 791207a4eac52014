import type { ReactNode } from 'react';

import { EmptyState } from './EmptyState';
import { Pagination } from './Pagination';
import { Skeleton } from './Skeleton';
import { useDelayedFlag } from './useDelayedFlag';

interface PagedListProps<T> {
  /** The section's class; its heading's is `${className}__title` unless `titleClassName` says otherwise. */
  className: string;
  title: string;
  titleId: string;
  titleClassName?: string;
  heading?: 'h2' | 'h3';
  /** The page's query: loading shows the skeleton (after spec §9's delay), fetching marks the section busy. */
  query: { isLoading: boolean; isFetching: boolean };
  /** The page's rows once answered; undefined while loading or after a failed load (which only hides the loader). */
  items: readonly T[] | undefined;
  emptyText: string;
  /** `${testId}-loading` and `${testId}-empty` name the skeleton and the empty state. */
  testId: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  pagesLabel: string;
  /** The rows, drawn when there is at least one. */
  children: (items: readonly T[]) => ReactNode;
}

/** A titled list of one page of rows with its loading, empty and pagination states (statement, refunds, invites). */
export function PagedList<T>({ className, title, titleId, titleClassName, heading: Heading = 'h3', query, items, emptyText, testId, page, pages, onPage, pagesLabel, children }: PagedListProps<T>) {
  const showLoading = useDelayedFlag(query.isLoading);
  return (
    <section className={className} aria-labelledby={titleId} aria-busy={query.isFetching}>
      <Heading id={titleId} className={titleClassName ?? `${className}__title`}>
        {title}
      </Heading>
      {query.isLoading && showLoading && <Skeleton variant="card" testId={`${testId}-loading`} />}
      {items && (items.length === 0 ? <EmptyState text={emptyText} testId={`${testId}-empty`} /> : children(items))}
      <Pagination page={page} pages={pages} onPage={onPage} label={pagesLabel} />
    </section>
  );
}
