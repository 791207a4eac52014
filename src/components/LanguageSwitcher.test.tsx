import { screen, waitFor } from '@testing-library/react';

import { initialPrefs } from '../core/prefs';
import { renderApp } from '../test/support/render';

describe('language switcher', () => {
  it('offers th, la and en and switches the whole page, with lang="lo" for Lao', async () => {
    const { user, store, persistor } = renderApp('/howto', { persist: true });
    const select = await screen.findByTestId('language-switcher');
    expect(Array.from((select as HTMLSelectElement).options).map((o) => o.value)).toEqual(['th', 'la', 'en']);
    expect(screen.getByLabelText('Language')).toBe(select);

    await user.selectOptions(select, 'la');
    expect(await screen.findByRole('heading', { name: 'ວິທີໃຊ້ງານ' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('lo');
    expect(store.getState().prefs.locale).toBe('la');

    await user.selectOptions(screen.getByTestId('language-switcher'), 'th');
    expect(await screen.findByRole('heading', { name: 'วิธีใช้งาน' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('th');

    await persistor!.flush();
    expect(JSON.parse(JSON.parse(window.localStorage.getItem('persist:prefs')!).locale)).toBe('th');
  });

  it('starts in the remembered language', async () => {
    renderApp('/login', { preloadedState: { prefs: { ...initialPrefs, locale: 'la' } } });
    expect(await screen.findByRole('heading', { name: 'ເຂົ້າສູ່ລະບົບ' })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.lang).toBe('lo'));
  });
});
