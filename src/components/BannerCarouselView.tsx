import { useTranslation } from 'react-i18next';
import { Carousel } from 'react-responsive-carousel';
import 'react-responsive-carousel/lib/styles/carousel.min.css';

import { useAppSelector } from '../core/hooks';
import { selectLocale } from '../core/prefs';
import type { Banner } from '../core/bannerApi';
import { localized } from '../lib/localized';
import { SafeHtml } from './SafeHtml';
import './banners.css';

interface Props {
  banners: Banner[];
  /** The carousel's accessible name. */
  label: string;
}

/**
 * react-responsive-carousel over banner items (image and sanitized caption). This module is the heavy part
 * (the package and its styles): BannerCarousel loads it only when a carousel is about to show. No autoplay
 * and no infinite loop (its cloned slides would be read twice); arrows and dots are labelled buttons.
 */
export default function BannerCarouselView({ banners, label }: Props) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const several = banners.length > 1;
  return (
    // The name goes on a region: the package puts ariaLabel on a plain div, where aria-label is not allowed.
    <section className="banner-carousel" aria-label={label} data-testid="banner-carousel">
      <Carousel
        showThumbs={false}
        showStatus={several}
        showIndicators={several}
        showArrows={several}
        swipeable={several}
        emulateTouch={several}
        autoPlay={false}
        infiniteLoop={false}
        labels={{ leftArrow: t('banners.previous'), rightArrow: t('banners.next'), item: t('banners.item') }}
        statusFormatter={(current, total) => t('banners.status', { current, total })}
        renderIndicator={(onClick, selected, index) => (
          <li className="banner-carousel__dot-item" key={index}>
            <button
              type="button"
              className={`banner-carousel__dot${selected ? ' banner-carousel__dot--selected' : ''}`}
              onClick={onClick}
              aria-label={t('banners.show', { number: index + 1 })}
              aria-current={selected ? 'true' : undefined}
            />
          </li>
        )}
      >
        {banners.map((banner, index) => {
          const caption = localized(banner.html, locale);
          return (
            <div className="banner-carousel__slide" key={`${banner.image}-${index}`} data-testid="banner-slide">
              <img src={banner.image} alt={caption ? '' : t('banners.image', { number: index + 1 })} loading="lazy" />
              {caption && <SafeHtml html={caption} className="banner-carousel__caption" />}
            </div>
          );
        })}
      </Carousel>
    </section>
  );
}
