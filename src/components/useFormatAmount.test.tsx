import { fireEvent } from '@testing-library/react';
import { useState } from 'react';

import { initialPrefs } from '../core/prefs';
import { renderWithProviders } from '../test/support/render';
import { useFormatAmount } from './useFormatAmount';

/** A screen whose amounts arrive after its first render (the home page and its wallet call). */
function Later() {
  const format = useFormatAmount();
  const [show, setShow] = useState(false);
  return <button onClick={() => setShow(true)}>{show ? format(1500) : 'loading'}</button>;
}

describe('useFormatAmount', () => {
  afterEach(() => jest.restoreAllMocks());

  it("writes amounts in the player's language without making an Intl.NumberFormat (its first one is a long task)", () => {
    const made = jest.spyOn(Intl, 'NumberFormat');
    for (const [locale, shown] of [
      ['th', '1,500.00'],
      ['la', '1.500,00'],
    ] as const) {
      const { getByRole, getByText, unmount } = renderWithProviders(<Later />, { preloadedState: { prefs: { ...initialPrefs, locale } } });
      fireEvent.click(getByRole('button'));
      expect(getByText(shown)).toBeTruthy();
      unmount();
    }
    expect(made).not.toHaveBeenCalled();
  });
});
