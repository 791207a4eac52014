import type { ComponentType } from 'react';

import { AuditPage } from './audit/AuditPage';
import { ConversationsPage } from './conversations/ConversationsPage';
import { PayoutsPage } from './payouts/PayoutsPage';
import { PlayersPage } from './players/PlayersPage';
import { ReviewsPage } from './reviews/ReviewsPage';
import { SeamlessReportPage } from './seamless/SeamlessReportPage';
import type { TextKey } from './i18n/texts';
import type { StaffRole } from './types';

/**
 * The console's pages: one module each, one line here. The shell builds the navigation and the routes from this
 * list; a page owns everything under /staff/<path>/ (its own sub-routes with a relative <Routes>). The back-office
 * pages of issue 14 (payments under review, payouts, player lookup) are added the same way.
 */
export interface StaffPage {
  /** The URL segment after /staff/. */
  path: string;
  /** Its name in the navigation (and its texts live under the same prefix in i18n/texts.ts). */
  navKey: TextKey;
  /** Who sees it; every role when absent. The server checks roles on its routes whatever the console shows. */
  roles?: readonly StaffRole[];
  Page: ComponentType;
}

export const STAFF_PAGES: readonly StaffPage[] = [
  { path: 'conversations', navKey: 'nav.conversations', Page: ConversationsPage },
  { path: 'players', navKey: 'nav.players', Page: PlayersPage },
  { path: 'reviews', navKey: 'nav.reviews', roles: ['payments', 'admin'], Page: ReviewsPage },
  { path: 'payouts', navKey: 'nav.payouts', roles: ['payments', 'admin'], Page: PayoutsPage },
  { path: 'seamless', navKey: 'nav.seamless', roles: ['payments', 'admin'], Page: SeamlessReportPage },
  { path: 'audit', navKey: 'nav.audit', roles: ['admin'], Page: AuditPage },
];

export const pagesFor = (role: StaffRole): StaffPage[] => STAFF_PAGES.filter((p) => !p.roles || p.roles.includes(role));
