import type { Banner } from '../core/bannerApi';
import {
  bannerGateReducer,
  bannersAnswered,
  bannersRefused,
  carouselClosed,
  gateModalOpened,
  gateOpened,
  initialBannerGate,
  type BannerGate,
} from './bannerGate';

const banner: Banner = { image: '/b1.png', html: { th: 'ไทย', la: 'ລາວ', en: 'Refund week' } };
const idle: BannerGate = initialBannerGate;
const fetching: BannerGate = { status: 'fetching', requestId: 'r1' };
const showing: BannerGate = { status: 'showing', banners: [banner] };
const passed: BannerGate = { status: 'passed' };

describe('banner gate: transition table', () => {
  it('idle -> fetching when opened', () => {
    expect(bannerGateReducer(idle, gateOpened({ requestId: 'r1' }))).toEqual(fetching);
  });

  it('fetching -> passed when there are no banners (the modal opens directly)', () => {
    expect(bannerGateReducer(fetching, bannersAnswered({ requestId: 'r1', banners: [] }))).toEqual(passed);
  });

  it('fetching -> showing with the banners; closing them -> passed (then the modal opens)', () => {
    const next = bannerGateReducer(fetching, bannersAnswered({ requestId: 'r1', banners: [banner] }));
    expect(next).toEqual(showing);
    expect(bannerGateReducer(next, carouselClosed())).toEqual(passed);
  });

  it('fetching -> passed on an ordinary failure, idle when the failure ended the session or the site', () => {
    expect(bannerGateReducer(fetching, bannersRefused({ requestId: 'r1', letThrough: true }))).toEqual(passed);
    expect(bannerGateReducer(fetching, bannersRefused({ requestId: 'r1', letThrough: false }))).toEqual(idle);
  });

  it('passed -> idle once the modal is opened', () => {
    expect(bannerGateReducer(passed, gateModalOpened())).toEqual(idle);
  });

  describe('refused events leave the state as it is', () => {
    it.each<[string, BannerGate, Parameters<typeof bannerGateReducer>[1]]>([
      ['opened while fetching', fetching, gateOpened({ requestId: 'r2' })],
      ['opened while banners show', showing, gateOpened({ requestId: 'r2' })],
      ['opened while passing', passed, gateOpened({ requestId: 'r2' })],
      ["another request's answer", fetching, bannersAnswered({ requestId: 'r0', banners: [] })],
      ["another request's failure", fetching, bannersRefused({ requestId: 'r0', letThrough: true })],
      ['an answer when idle', idle, bannersAnswered({ requestId: 'r1', banners: [banner] })],
      ['an answer while banners show', showing, bannersAnswered({ requestId: 'r1', banners: [] })],
      ['a failure when idle', idle, bannersRefused({ requestId: 'r1', letThrough: true })],
      ['carousel closed when idle', idle, carouselClosed()],
      ['carousel closed while fetching', fetching, carouselClosed()],
      ['carousel closed after passing', passed, carouselClosed()],
      ['modal opened when idle', idle, gateModalOpened()],
      ['modal opened while fetching', fetching, gateModalOpened()],
      ['modal opened while banners show', showing, gateModalOpened()],
    ])('%s', (_name, from, event) => {
      expect(bannerGateReducer(from, event)).toBe(from);
    });
  });
});
