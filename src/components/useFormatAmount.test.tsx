import { act, fireEvent } from '@testing-library/react';
import { useState } from 'react';

import { initialPrefs } from '../app/prefs';
import { renderWithProviders } from '../test/render';
import { useFormatAmount } from './useFormatAmount';

/** A screen whose amounts arrive after its first render (the home page and its wallet call). */
function Later() {
  const format = useFormatAmount();
  const [show, setShow] = useState(false);
  return <button onClick={() => setShow(true)}>{show ? format(1500) : 'loading'}</button>;
}

describe('useFormatAmount', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it("makes the language's formatter in a task after the first render, so the render with the amounts does not", () => {
    jest.useFakeTimers();
    const made = jest.spyOn(Intl, 'NumberFormat');
    const preloadedState = { prefs: { ...initialPrefs, locale: 'th' as const } };
    const { getByRole, getByText } = renderWithProviders(<Later />, { preloadedState });
    expect(made).not.toHaveBeenCalledWith('th', expect.anything());
    act(() => void jest.runOnlyPendingTimers());
    expect(made).toHaveBeenCalledTimes(1);
    expect(made).toHaveBeenCalledWith('th', expect.objectContaining({ minimumFractionDigits: 2 }));

    fireEvent.click(getByRole('button'));
    expect(getByText('1,500.00')).toBeTruthy();
    expect(made).toHaveBeenCalledTimes(1);
  });
});
