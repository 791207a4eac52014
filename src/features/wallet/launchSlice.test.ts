import { sessionEnded } from '../../core/authEvents';
import { initialLaunchState, isLaunching, launchFailed, launchReducer, launchReset, linkReady, started, transferSettled, type LaunchState } from './launchSlice';

type Action = Parameters<typeof launchReducer>[1];
const game = { game: 'pg', target: 'web' as const };
const transferring: LaunchState = { status: 'transferring', ...game };
const linking: LaunchState = { status: 'linking', ...game };
const opened: LaunchState = { status: 'opened', ...game };
const blocked: LaunchState = { status: 'blocked', ...game, link: 'https://g.example/play' };
const failed: LaunchState = { status: 'failed', ...game, code: 'NO_GAME' };

describe('game launch slice', () => {
  it.each<[string, LaunchState, Action, LaunchState]>([
    ['idle + started with an amount -> transferring', initialLaunchState, started({ ...game, transfer: true }), transferring],
    ['idle + started at zero -> linking', initialLaunchState, started({ ...game, transfer: false }), linking],
    ['opened + started -> a new launch', opened, started({ game: 'joker2', target: 'android', transfer: false }), { status: 'linking', game: 'joker2', target: 'android' }],
    ['blocked + started -> a new launch', blocked, started({ ...game, transfer: true }), transferring],
    ['failed + started -> a new launch', failed, started({ ...game, transfer: false }), linking],
    ['transferring + transfer done -> linking', transferring, transferSettled({ ok: true }), linking],
    ['transferring + transfer refused -> idle', transferring, transferSettled({ ok: false }), initialLaunchState],
    ['linking + link opened in the window -> opened', linking, linkReady({ link: 'https://g.example/play', opened: true }), opened],
    ['linking + window refused -> blocked with the link', linking, linkReady({ link: 'https://g.example/play', opened: false }), blocked],
    ['linking + failure -> failed', linking, launchFailed({ code: 'NO_GAME' }), failed],
    ['transferring + failure -> failed', transferring, launchFailed({ code: 'NETWORK' }), { status: 'failed', ...game, code: 'NETWORK' }],
    ['linking + reset -> idle', linking, launchReset(), initialLaunchState],
    ['blocked + reset -> idle', blocked, launchReset(), initialLaunchState],
    ['transferring + session ended -> idle', transferring, sessionEnded('rejected'), initialLaunchState],
  ])('%s', (_name, state, action, next) => {
    expect(launchReducer(state, action)).toEqual(next);
  });

  it.each<[string, LaunchState, Action]>([
    ['a start while transferring', transferring, started({ game: 'joker2', target: 'web', transfer: false })],
    ['a start while linking', linking, started({ ...game, transfer: true })],
    ['a transfer result while linking', linking, transferSettled({ ok: false })],
    ['a transfer result with nothing running', initialLaunchState, transferSettled({ ok: true })],
    ['a link while transferring', transferring, linkReady({ link: 'x', opened: true })],
    ['a link after the modal closed', initialLaunchState, linkReady({ link: 'x', opened: true })],
    ['a failure with nothing running', initialLaunchState, launchFailed({ code: 'X' })],
    ['a failure after the game opened', opened, launchFailed({ code: 'X' })],
    ['a second link after blocked', blocked, linkReady({ link: 'y', opened: true })],
  ])('refuses %s (the state stays as it is)', (_name, state, action) => {
    expect(launchReducer(state, action)).toBe(state);
  });

  it('is launching only while transferring or linking', () => {
    expect([initialLaunchState, transferring, linking, opened, blocked, failed].map(isLaunching)).toEqual([false, true, true, false, false, false]);
  });
});
