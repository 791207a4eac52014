import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { limitsAnswer, server } from '../test/support/server';
import { playLimitsApi, restrictionCode, selectRestriction, type Restriction } from './playLimits';
import { makeStore } from '../app/store';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const timeout = { kind: 'TIMEOUT', period: '7d', startsAt: '2026-11-26T11:00:00.000Z', endsAt: '2026-12-03T11:00:00.000Z' } as const;
const exclusion = { kind: 'EXCLUSION', period: '1y', startsAt: '2026-11-26T11:00:00.000Z', endsAt: '2027-11-26T11:00:00.000Z' } as const;

async function storeWith(restriction: Restriction | null) {
  server.use(http.get('/api/limits', () => HttpResponse.json(limitsAnswer({ restriction }))));
  const store = makeStore();
  void store.dispatch(playLimitsApi.endpoints.getLimits.initiate());
  await waitFor(() => expect(playLimitsApi.endpoints.getLimits.select()(store.getState()).isSuccess).toBe(true));
  return store;
}

describe('the restriction selector (over GET /api/limits)', () => {
  it('is null before the limits have loaded', () => {
    expect(selectRestriction(makeStore().getState(), NOW)).toBeNull();
  });

  it('is null without a restriction', async () => {
    expect(selectRestriction((await storeWith(null)).getState(), NOW)).toBeNull();
  });

  it('gives the running time-out or exclusion: kind and end', async () => {
    expect(selectRestriction((await storeWith(timeout)).getState(), NOW)).toMatchObject({ kind: 'TIMEOUT', endsAt: timeout.endsAt });
    expect(selectRestriction((await storeWith(exclusion)).getState(), NOW)).toMatchObject({ kind: 'EXCLUSION', endsAt: exclusion.endsAt });
  });

  it('is null once the restriction has ended, even before the limits reload', async () => {
    const store = await storeWith(timeout);
    expect(selectRestriction(store.getState(), Date.parse(timeout.endsAt) - 1)).not.toBeNull();
    expect(selectRestriction(store.getState(), Date.parse(timeout.endsAt))).toBeNull();
  });

  it('names the refusal the server gives play routes', () => {
    expect(restrictionCode(timeout)).toBe('PLAY_TIMEOUT');
    expect(restrictionCode(exclusion)).toBe('SELF_EXCLUDED');
  });
});
