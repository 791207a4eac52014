import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { HOWTO_KEYS, type HowtoVideo } from './howtoApi';
import HowtoPage from './HowtoPage';

const video = (key: HowtoVideo['key'], over: Partial<HowtoVideo> = {}): HowtoVideo => ({
  key,
  url: `/media/howto/${key}.webm`,
  poster: `/media/howto/${key}.jpg`,
  captions: { th: `/media/howto/${key}.th.vtt`, la: `/media/howto/${key}.la.vtt`, en: `/media/howto/${key}.en.vtt` },
  ...over,
});

function howtoServer(videos: HowtoVideo[] = HOWTO_KEYS.map((key) => video(key))) {
  const calls = { n: 0 };
  server.use(
    http.get('/api/lookup/howto', () => {
      calls.n += 1;
      return HttpResponse.json({ videos });
    }),
  );
  return calls;
}

// jsdom has no media playback: the element's methods are stubbed, their calls observed.
let pause: jest.SpyInstance;
beforeEach(() => {
  pause = jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const open = (locale: 'en' | 'th' = 'en') => renderWithProviders(<HowtoPage />, { preloadedState: { prefs: { ...initialPrefs, locale } } });

describe('how-to screen', () => {
  it('lists the five subjects in order, each opening its video with controls, poster and captions', async () => {
    howtoServer();
    const { user } = open();
    const items = screen.getAllByRole('button', { name: /./ }).filter((b) => b.dataset.testid?.startsWith('howto-'));
    expect(items.map((b) => b.dataset.testid)).toEqual(['howto-wallet', 'howto-play', 'howto-balance', 'howto-bonus', 'howto-cancelBonus']);
    expect(items.map((b) => b.querySelector('.howto-item__title')?.textContent)).toEqual([
      'Your wallet',
      'Playing a game',
      'Refreshing your balance',
      'Getting a bonus',
      'Cancelling a bonus',
    ]);
    await waitFor(() => expect(items[0].querySelector('img')).toHaveAttribute('src', '/media/howto/wallet.jpg'));

    await user.click(screen.getByTestId('howto-play'));
    const dialog = await screen.findByRole('dialog', { name: 'Playing a game' });
    const player = within(dialog).getByLabelText('Video: Playing a game') as HTMLVideoElement;
    expect(player.tagName).toBe('VIDEO');
    expect(player).toHaveAttribute('src', '/media/howto/play.webm');
    expect(player).toHaveAttribute('poster', '/media/howto/play.jpg');
    expect(player).toHaveAttribute('controls');
    expect(player).toHaveAttribute('preload', 'metadata');
    const tracks = Array.from(player.querySelectorAll('track'));
    expect(tracks.map((track) => [track.kind, track.getAttribute('src'), track.srclang, track.label, track.default])).toEqual([
      ['captions', '/media/howto/play.th.vtt', 'th', 'ไทย', false],
      ['captions', '/media/howto/play.la.vtt', 'lo', 'ລາວ', false],
      ['captions', '/media/howto/play.en.vtt', 'en', 'English', true],
    ]);
  });

  it('is keyboard operable: Enter opens, Tab reaches the video, Escape closes and the video stops and rewinds', async () => {
    howtoServer();
    const { user } = open();
    await waitFor(() => expect(screen.getByTestId('howto-bonus').querySelector('img')).not.toBeNull());
    screen.getByTestId('howto-bonus').focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Getting a bonus' });
    const player = within(dialog).getByTestId('howto-video-player') as HTMLVideoElement;
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab();
    expect(player).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();

    player.currentTime = 12;
    pause.mockClear();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(pause).toHaveBeenCalled();
    expect(player.currentTime).toBe(0);
    expect(screen.getByTestId('howto-bonus')).toHaveFocus();
  });

  it('turns on the captions of the player’s language', async () => {
    howtoServer([video('wallet', { captions: { th: '/media/howto/wallet.th.vtt', en: '/media/howto/wallet.en.vtt' } })]);
    const { user } = open('th');
    await user.click(screen.getByTestId('howto-wallet'));
    const dialog = await screen.findByRole('dialog', { name: 'กระเป๋าเงินของคุณ' });
    const tracks = Array.from(dialog.querySelectorAll('track'));
    expect(tracks.map((track) => [track.srclang, track.default])).toEqual([
      ['th', true],
      ['en', false],
    ]);
  });

  it('says a video is not available when there is none, or when it fails to load', async () => {
    howtoServer([video('wallet'), video('play', { url: null, poster: null, captions: {} })]);
    const { user } = open();
    await user.click(screen.getByTestId('howto-play'));
    let dialog = await screen.findByRole('dialog', { name: 'Playing a game' });
    expect(within(dialog).getByTestId('howto-video-missing')).toHaveTextContent('This video is not available right now. Please try again later.');
    expect(dialog.querySelector('video')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    // A subject the operator left out of the list has no video either.
    await user.click(screen.getByTestId('howto-balance'));
    dialog = await screen.findByRole('dialog', { name: 'Refreshing your balance' });
    expect(within(dialog).getByTestId('howto-video-missing')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(screen.getByTestId('howto-wallet'));
    dialog = await screen.findByRole('dialog', { name: 'Your wallet' });
    fireEvent.error(within(dialog).getByTestId('howto-video-player'));
    expect(await within(dialog).findByTestId('howto-video-missing')).toBeInTheDocument();
    expect(dialog.querySelector('video')).toBeNull();
  });

  it('says when the videos could not be loaded, and tries again on request', async () => {
    server.use(http.get('/api/lookup/howto', () => errorResponse('INTERNAL_SERVER_ERROR', 500)));
    const { user } = open();
    const failed = await screen.findByTestId('howto-failed');
    expect(failed).toHaveTextContent('The videos could not be loaded.');
    expect(document.querySelector('.notistack-MuiContent-error')).toBeNull();
    const calls = howtoServer();
    await user.click(within(failed).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('howto-failed')).not.toBeInTheDocument());
    expect(calls.n).toBe(1);
    await user.click(screen.getByTestId('howto-cancelBonus'));
    expect(await screen.findByTestId('howto-video-player')).toHaveAttribute('src', '/media/howto/cancelBonus.webm');
  });
});
