import { homeLeft, homeReducer, initialHomeState, inviteReceiveEnded, inviteReceiveStarted, playRefused, type HomeState } from './homeSlice';

const receiving = (requestId: string, refusals = 0): HomeState => ({ refusals, invite: { status: 'receiving', requestId } });

describe('the home machine', () => {
  it.each<[string, HomeState, { type: string }, HomeState]>([
    ['a refused tap is counted', initialHomeState, playRefused(), { refusals: 1, invite: { status: 'idle' } }],
    ['each refused tap counts again (the refusal takes the focus again)', { refusals: 1, invite: { status: 'idle' } }, playRefused(), { refusals: 2, invite: { status: 'idle' } }],
    ['a refused tap while receiving keeps the receive', receiving('r1'), playRefused(), receiving('r1', 1)],
    ['receiving the invite bonus starts', initialHomeState, inviteReceiveStarted({ requestId: 'r1' }), receiving('r1')],
    ["the receive's answer ends it", receiving('r1'), inviteReceiveEnded({ requestId: 'r1' }), initialHomeState],
    ['leaving the home starts it afresh', receiving('r1', 3), homeLeft(), initialHomeState],
  ])('%s', (_name, before, action, after) => {
    expect(homeReducer(before, action)).toEqual(after);
  });

  it.each<[string, HomeState, { type: string }]>([
    ['a second receive while one is under way', receiving('r1'), inviteReceiveStarted({ requestId: 'r2' })],
    ['an answer with no receive under way', initialHomeState, inviteReceiveEnded({ requestId: 'r1' })],
    ['a stale answer (another request)', receiving('r2'), inviteReceiveEnded({ requestId: 'r1' })],
    ['leaving a home with nothing to forget', initialHomeState, homeLeft()],
  ])('ignores %s (state unchanged)', (_name, before, action) => {
    expect(homeReducer(before, action)).toBe(before);
  });
});
