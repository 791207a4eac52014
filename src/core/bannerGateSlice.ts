import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { sessionEnded } from './authEvents';
import type { Banner, BannerSource } from './bannerApi';

/**
 * The banner gate in front of a home modal (spec §2 Home modals: invite and refund), one per source, as
 * state.bannerGates (injected with the home's chunk: bannerGateStore.ts):
 *
 *   idle --opened--> fetching --answered (banners)--> showing --carouselClosed--> passed
 *                             --answered (none)-----------------------------> passed
 *                             --refused (ordinary failure)-------------------> passed
 *                             --refused (session over / site gone)---------> idle
 *   passed --modalOpened--> idle
 *   any --gateLeft (the opener went) / session ended--> idle
 *
 * `passed` means the player goes through: the gate's thunk opens the modal and reports it. Answers are matched
 * by the request id that asked; anything the source's gate does not expect leaves the whole state unchanged.
 */
export type BannerGate =
  | { status: 'idle' }
  | { status: 'fetching'; requestId: string }
  | { status: 'showing'; banners: Banner[] }
  | { status: 'passed' };

/** The gates by source (the home has a refund and an invite gate); a source not opened yet is idle. */
export type BannerGates = Partial<Record<BannerSource, BannerGate>>;

export const initialBannerGate: BannerGate = { status: 'idle' };
export const initialBannerGates: BannerGates = {};

interface Source {
  source: BannerSource;
}

/** Moves `source`'s gate; a refused event (the same gate back) touches nothing, so the state stays the same object. */
function step(gates: BannerGates, source: BannerSource, transition: (gate: BannerGate) => BannerGate): void {
  const before = gates[source] ?? initialBannerGate;
  const after = transition(before);
  if (after !== before) gates[source] = after;
}

const bannerGateSlice = createSlice({
  name: 'bannerGate',
  initialState: initialBannerGates,
  reducers: {
    gateOpened(state, { payload }: PayloadAction<Source & { requestId: string }>) {
      step(state, payload.source, (gate) => (gate.status === 'idle' ? { status: 'fetching', requestId: payload.requestId } : gate));
    },
    bannersAnswered(state, { payload }: PayloadAction<Source & { requestId: string; banners: Banner[] }>) {
      step(state, payload.source, (gate) => {
        if (gate.status !== 'fetching' || gate.requestId !== payload.requestId) return gate;
        return payload.banners.length > 0 ? { status: 'showing', banners: payload.banners } : { status: 'passed' };
      });
    },
    /** `letThrough` is false when the failure ended the session or the site: there is no modal to open. */
    bannersRefused(state, { payload }: PayloadAction<Source & { requestId: string; letThrough: boolean }>) {
      step(state, payload.source, (gate) => {
        if (gate.status !== 'fetching' || gate.requestId !== payload.requestId) return gate;
        return payload.letThrough ? { status: 'passed' } : initialBannerGate;
      });
    },
    carouselClosed(state, { payload }: PayloadAction<Source>) {
      step(state, payload.source, (gate) => (gate.status === 'showing' ? { status: 'passed' } : gate));
    },
    gateModalOpened(state, { payload }: PayloadAction<Source>) {
      step(state, payload.source, (gate) => (gate.status === 'passed' ? initialBannerGate : gate));
    },
    /** The opener went (the home unmounted): its banners go with it, and an answer on its way is then ignored. */
    gateLeft(state, { payload }: PayloadAction<Source>) {
      step(state, payload.source, (gate) => (gate.status === 'idle' ? gate : initialBannerGate));
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, () => initialBannerGates);
  },
});

export const { gateOpened, bannersAnswered, bannersRefused, carouselClosed, gateModalOpened, gateLeft } = bannerGateSlice.actions;
export const bannerGateReducer = bannerGateSlice.reducer;
