import type { UnknownAction } from '@reduxjs/toolkit';

import { sessionEnded } from './authEvents';
import type { Banner } from './bannerApi';
import {
  bannerGateReducer,
  bannersAnswered,
  bannersRefused,
  carouselClosed,
  gateLeft,
  gateModalOpened,
  gateOpened,
  initialBannerGates,
  type BannerGate,
  type BannerGates,
} from './bannerGateSlice';

const banner: Banner = { image: '/b1.png', html: { th: 'ไทย', la: 'ລາວ', en: 'Refund week' } };
const source = 'refund' as const;
const idle: BannerGate = { status: 'idle' };
const fetching: BannerGate = { status: 'fetching', requestId: 'r1' };
const showing: BannerGate = { status: 'showing', banners: [banner] };
const passed: BannerGate = { status: 'passed' };

/** The refund gate at `gate` (the invite gate idle beside it). */
const at = (gate: BannerGate): BannerGates => ({ refund: gate });
const run = (from: BannerGates, ...events: UnknownAction[]) => events.reduce(bannerGateReducer, from);

describe('banner gate: transition table', () => {
  it('idle -> fetching when opened (a source never opened is idle)', () => {
    expect(run(initialBannerGates, gateOpened({ source, requestId: 'r1' }))).toEqual(at(fetching));
    expect(run(at(idle), gateOpened({ source, requestId: 'r1' }))).toEqual(at(fetching));
  });

  it('fetching -> passed when there are no banners (the modal opens directly)', () => {
    expect(run(at(fetching), bannersAnswered({ source, requestId: 'r1', banners: [] }))).toEqual(at(passed));
  });

  it('fetching -> showing with the banners; closing them -> passed (then the modal opens)', () => {
    const next = run(at(fetching), bannersAnswered({ source, requestId: 'r1', banners: [banner] }));
    expect(next).toEqual(at(showing));
    expect(run(next, carouselClosed({ source }))).toEqual(at(passed));
  });

  it('fetching -> passed on an ordinary failure, idle when the failure ended the session or the site', () => {
    expect(run(at(fetching), bannersRefused({ source, requestId: 'r1', letThrough: true }))).toEqual(at(passed));
    expect(run(at(fetching), bannersRefused({ source, requestId: 'r1', letThrough: false }))).toEqual(at(idle));
  });

  it('passed -> idle once the modal is opened', () => {
    expect(run(at(passed), gateModalOpened({ source }))).toEqual(at(idle));
  });

  it('the opener going returns its gate to idle from every state; the session ending, every gate', () => {
    for (const from of [fetching, showing, passed]) {
      expect(run(at(from), gateLeft({ source }))).toEqual(at(idle));
      expect(run({ refund: from, invite: from }, sessionEnded('logout'))).toEqual(initialBannerGates);
    }
  });

  it('each source has its own gate: the invite gate moves without the refund one', () => {
    const both = run(at(showing), gateOpened({ source: 'invite', requestId: 'i1' }));
    expect(both).toEqual({ refund: showing, invite: { status: 'fetching', requestId: 'i1' } });
    expect(run(both, bannersAnswered({ source: 'invite', requestId: 'i1', banners: [] }), carouselClosed({ source }))).toEqual({ refund: passed, invite: passed });
    expect(run(both, gateLeft({ source: 'invite' }))).toEqual({ refund: showing, invite: idle });
  });

  describe('refused events leave the state as it is', () => {
    it.each<[string, BannerGates, UnknownAction]>([
      ['opened while fetching', at(fetching), gateOpened({ source, requestId: 'r2' })],
      ['opened while banners show', at(showing), gateOpened({ source, requestId: 'r2' })],
      ['opened while passing', at(passed), gateOpened({ source, requestId: 'r2' })],
      ["another request's answer (a stale one)", at(fetching), bannersAnswered({ source, requestId: 'r0', banners: [] })],
      ["another request's failure", at(fetching), bannersRefused({ source, requestId: 'r0', letThrough: true })],
      ["another source's answer with the same request id", at(fetching), bannersAnswered({ source: 'invite', requestId: 'r1', banners: [] })],
      ['an answer when idle', at(idle), bannersAnswered({ source, requestId: 'r1', banners: [banner] })],
      ['an answer to a gate never opened', initialBannerGates, bannersAnswered({ source, requestId: 'r1', banners: [banner] })],
      ['an answer while banners show', at(showing), bannersAnswered({ source, requestId: 'r1', banners: [] })],
      ['a failure when idle', at(idle), bannersRefused({ source, requestId: 'r1', letThrough: true })],
      ['carousel closed when idle', at(idle), carouselClosed({ source })],
      ['carousel closed while fetching', at(fetching), carouselClosed({ source })],
      ['carousel closed after passing', at(passed), carouselClosed({ source })],
      ["another source's carousel closed", at(showing), carouselClosed({ source: 'invite' })],
      ['modal opened when idle', at(idle), gateModalOpened({ source })],
      ['modal opened while fetching', at(fetching), gateModalOpened({ source })],
      ['modal opened while banners show', at(showing), gateModalOpened({ source })],
      ['the opener going when idle', at(idle), gateLeft({ source })],
      ['the opener going before it was ever opened', initialBannerGates, gateLeft({ source })],
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});
