import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs, localeChosen } from '../../core/prefs';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import { AgreementModal } from './AgreementModal';

/** Issue 12: the agreements are stored per language on the server; the modal asks for the player's. */
const BY_LANG: Record<string, string[]> = {
  th: ['<p>ข้าพเจ้ายืนยันว่ามีอายุถึงเกณฑ์</p>'],
  la: ['<p>ຂ້າພະເຈົ້າຢືນຢັນວ່າມີອາຍຸຮອດເກນ</p>'],
  en: ['<p>I confirm I am of legal age</p>'],
};

it("shows the agreements in the player's language and follows a language switch", async () => {
  const asked: (string | null)[] = [];
  server.use(
    http.get('/api/lookup/agreements', ({ request }) => {
      const lang = new URL(request.url).searchParams.get('lang');
      asked.push(lang);
      return HttpResponse.json(BY_LANG[lang ?? 'th']);
    }),
  );
  const { store } = renderWithProviders(<AgreementModal onClose={() => undefined} />, { preloadedState: { prefs: { ...initialPrefs, locale: 'la' } } });
  expect(await screen.findByText('ຂ້າພະເຈົ້າຢືນຢັນວ່າມີອາຍຸຮອດເກນ')).toBeInTheDocument();
  act(() => {
    store.dispatch(localeChosen('en'));
  });
  expect(await screen.findByText('I confirm I am of legal age')).toBeInTheDocument();
  expect(screen.queryByText('ຂ້າພະເຈົ້າຢືນຢັນວ່າມີອາຍຸຮອດເກນ')).not.toBeInTheDocument();
  expect(asked).toEqual(['la', 'en']);
});
