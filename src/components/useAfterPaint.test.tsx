import { act, render } from '@testing-library/react';

import { useAfterPaint } from './useAfterPaint';

function Probe() {
  return <p>{useAfterPaint() ? 'after' : 'first'}</p>;
}

describe('useAfterPaint', () => {
  afterEach(() => jest.useRealTimers());

  it('is false on the first render and through the next frame, true in the task after it', () => {
    jest.useFakeTimers();
    const { container, unmount } = render(<Probe />);
    expect(container.textContent).toBe('first');
    act(() => void jest.advanceTimersToNextFrame());
    expect(container.textContent).toBe('first');
    act(() => void jest.runOnlyPendingTimers());
    expect(container.textContent).toBe('after');
    unmount();
  });

  it('sets nothing once unmounted', () => {
    jest.useFakeTimers();
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { unmount } = render(<Probe />);
    unmount();
    act(() => void jest.runAllTimers());
    expect(errors).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
    errors.mockRestore();
  });
});
