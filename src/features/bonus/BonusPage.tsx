import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '../../components/PageTitle';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useModalWhile } from '../../components/useModalWhile';
import { useNow } from '../../components/useNow';
import { ActiveBonusPanel } from './ActiveBonusPanel';
import { useGetActiveBonusQuery, useGetBonusesQuery } from './bonusApi';
import { BonusCard } from './BonusCard';
import { BONUS_MODAL, BonusModal } from './BonusModal';
import { selectBonusCardState } from './exhaustion';
import { PromotionSearch } from './PromotionSearch';
import { EmptyState } from '../../components/EmptyState';
import { Skeleton } from '../../components/Skeleton';
import './bonus.css';

/**
 * /user/bonus (spec §2): the title; the active bonus (type, progress, cancel) or the promotion-code search;
 * the grid of bonus cards, each active, exhausted or available (spec §4). Load failures only hide the loader.
 */
export default function BonusPage() {
  const { t } = useTranslation();
  // Play moves the turnover and may finish a bonus while the player is elsewhere: ask again on every visit.
  const bonuses = useGetBonusesQuery(undefined, { refetchOnMountOrArgChange: true });
  const active = useGetActiveBonusQuery(undefined, { refetchOnMountOrArgChange: true });
  // Day and week limits end at midnight: the cards follow the clock while the page stays open.
  const now = useNow(60_000);
  const [selected, setSelected] = useState<string | null>(null);
  const showActiveLoading = useDelayedFlag(active.isLoading);
  const showListLoading = useDelayedFlag(bonuses.isLoading);

  const cards = useMemo(
    () => (bonuses.data?.bonuses ?? []).map((bonus) => ({ bonus, state: selectBonusCardState(bonus, now) })),
    [bonuses.data, now],
  );
  const open = cards.find((card) => card.bonus.code === selected) ?? null;
  useModalWhile(BONUS_MODAL, open !== null);

  return (
    <section className="page bonus" aria-busy={bonuses.isFetching || active.isFetching}>
      <PageTitle>{t('pages.bonus')}</PageTitle>

      {active.isLoading ? (
        showActiveLoading && (
          <Skeleton variant="card" testId="bonus-active-loading" />
        )
      ) : active.data?.status ? (
        <ActiveBonusPanel active={active.data} />
      ) : (
        <PromotionSearch />
      )}

      <h2 className="bonus-section-title">{t('bonus.listTitle')}</h2>
      {bonuses.isLoading && showListLoading && (
        <Skeleton variant="card" testId="bonus-list-loading" />
      )}
      {bonuses.data &&
        (cards.length === 0 ? (
          <EmptyState text={t('bonus.empty')} testId="bonus-empty" />
        ) : (
          <ul className="bonus-grid" data-testid="bonus-grid">
            {cards.map(({ bonus, state }) => (
              <BonusCard key={bonus.code} bonus={bonus} state={state} onOpen={setSelected} />
            ))}
          </ul>
        ))}

      {open && <BonusModal bonus={open.bonus} active={open.state === 'active'} onClose={() => setSelected(null)} />}
    </section>
  );
}
