import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { playLimitsApi } from '../core/playLimits';
import { renderWithProviders } from '../test/support/render';
import { limitsAnswer, server } from '../test/support/server';
import { BannerCarousel } from './BannerCarousel';

const banners = [{ image: '/banners/promo.png', html: { th: 'โปร', la: 'ໂປຣ', en: 'Promotion' } }];

async function renderWith(restriction: 'TIMEOUT' | 'EXCLUSION' | null) {
  server.use(
    http.get('/api/limits', () =>
      HttpResponse.json(limitsAnswer({ restriction: restriction && { kind: restriction, period: '1y', startsAt: '2026-11-26T10:00:00.000Z', endsAt: '2999-01-01T00:00:00.000Z' } })),
    ),
  );
  const view = renderWithProviders(<BannerCarousel banners={banners} label="Promotions" />);
  void view.store.dispatch(playLimitsApi.endpoints.getLimits.initiate());
  await waitFor(() => expect(playLimitsApi.endpoints.getLimits.select()(view.store.getState()).isSuccess).toBe(true));
  return view;
}

describe('banner carousel and the play restrictions (issue 15)', () => {
  it('shows the banners without a restriction', async () => {
    await renderWith(null);
    expect(await screen.findByRole('region', { name: 'Promotions' })).toBeInTheDocument();
    expect(screen.getByTestId('banner-slide')).toHaveTextContent('Promotion');
  });

  it.each(['TIMEOUT', 'EXCLUSION'] as const)('shows nothing while a %s runs', async (kind) => {
    const { container } = await renderWith(kind);
    expect(container).toBeEmptyDOMElement();
  });
});
