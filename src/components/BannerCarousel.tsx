import { lazy, Suspense } from 'react';

import type { Banner } from '../core/bannerApi';
import { useAppSelector } from '../core/hooks';
import { selectRestriction } from '../core/playLimits';
import './banners.css';

// The carousel package and its styles are heavy and rare: their own chunk, fetched when a carousel shows.
const BannerCarouselView = lazy(() => import(/* webpackChunkName: "banner-carousel" */ './BannerCarouselView'));

/**
 * Banner images with their captions in a carousel (bonus modal, the banner gate); nothing when empty, and nothing
 * while the player has taken a time-out or excluded themselves (issue 15: no marketing then).
 */
export function BannerCarousel({ banners, label }: { banners: Banner[]; label: string }) {
  const restricted = useAppSelector((state) => selectRestriction(state) !== null);
  if (banners.length === 0 || restricted) return null;
  return (
    <Suspense fallback={<div className="banner-carousel banner-carousel--loading" aria-hidden="true" />}>
      <BannerCarouselView banners={banners} label={label} />
    </Suspense>
  );
}
