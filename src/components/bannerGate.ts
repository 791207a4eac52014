import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { Banner } from '../core/bannerApi';

/**
 * The banner gate in front of a home modal (spec §2 Home modals: invite and refund):
 *
 *   idle --opened--> fetching --answered (banners)--> showing --carouselClosed--> passed
 *                             --answered (none)-----------------------------> passed
 *                             --refused (ordinary failure)-------------------> passed
 *                             --refused (session over / site gone)---------> idle
 *   passed --modalOpened--> idle
 *
 * `passed` means the player goes through: the gate's owner opens the modal and reports it. Answers are matched
 * by the request id that asked; anything the current state does not expect leaves it unchanged.
 */
export type BannerGate =
  | { status: 'idle' }
  | { status: 'fetching'; requestId: string }
  | { status: 'showing'; banners: Banner[] }
  | { status: 'passed' };

export const initialBannerGate: BannerGate = { status: 'idle' };

const bannerGate = createSlice({
  name: 'bannerGate',
  initialState: initialBannerGate as BannerGate,
  reducers: {
    gateOpened(state, { payload }: PayloadAction<{ requestId: string }>): BannerGate {
      return state.status === 'idle' ? { status: 'fetching', requestId: payload.requestId } : state;
    },
    bannersAnswered(state, { payload }: PayloadAction<{ requestId: string; banners: Banner[] }>): BannerGate {
      if (state.status !== 'fetching' || state.requestId !== payload.requestId) return state;
      return payload.banners.length > 0 ? { status: 'showing', banners: payload.banners } : { status: 'passed' };
    },
    /** `letThrough` is false when the failure ended the session or the site: there is no modal to open. */
    bannersRefused(state, { payload }: PayloadAction<{ requestId: string; letThrough: boolean }>): BannerGate {
      if (state.status !== 'fetching' || state.requestId !== payload.requestId) return state;
      return payload.letThrough ? { status: 'passed' } : { status: 'idle' };
    },
    carouselClosed(state): BannerGate {
      return state.status === 'showing' ? { status: 'passed' } : state;
    },
    gateModalOpened(state): BannerGate {
      return state.status === 'passed' ? { status: 'idle' } : state;
    },
  },
});

export const { gateOpened, bannersAnswered, bannersRefused, carouselClosed, gateModalOpened } = bannerGate.actions;
export const bannerGateReducer = bannerGate.reducer;
