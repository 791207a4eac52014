import type { AppDispatch, RootState } from '../app/store';
import { classifyError } from './apiErrors';
import { bannerApi, type BannerSource } from './bannerApi';
import { bannerGateReducer, bannersAnswered, bannersRefused, carouselClosed, gateModalOpened, gateOpened, initialBannerGate, type BannerGate } from './bannerGateSlice';
import { injectSlice } from './lazySlices';
import type { ModalId } from './modalIds';
import { modalOpened } from './modalSlice';
import { selectRestriction } from './playLimits';

/**
 * The banner gates, injected into the store when their opener's chunk (the home) loads: the login bundle does not
 * carry them. Until an action has passed after the injection the state is undefined: the selector falls back to idle.
 */
injectSlice({ reducerPath: 'bannerGates', reducer: bannerGateReducer });

export const selectBannerGate = (state: RootState, source: BannerSource): BannerGate => state.bannerGates?.[source] ?? initialBannerGate;

type Thunk<T = void> = (dispatch: AppDispatch, getState: () => RootState) => T;

/** Once `source`'s gate has let the player through, the modal behind it opens. */
const passThrough =
  (source: BannerSource, modalId: ModalId): Thunk =>
  (dispatch, getState) => {
    if (selectBannerGate(getState(), source).status !== 'passed') return;
    dispatch(modalOpened(modalId));
    dispatch(gateModalOpened({ source }));
  };

/**
 * The opener was pressed: ask for `source`'s banners (a fresh list each time), then show them or open the modal.
 * Ignored while that gate is busy; no banners while a time-out or self-exclusion runs (issue 15): straight to the modal.
 */
export const bannerGateOpened =
  (source: BannerSource, modalId: ModalId): Thunk<Promise<void>> =>
  async (dispatch, getState) => {
    const state = getState();
    if (selectBannerGate(state, source).status !== 'idle') return;
    if (selectRestriction(state) !== null) {
      dispatch(modalOpened(modalId));
      return;
    }
    const request = dispatch(bannerApi.endpoints.getBanners.initiate(source, { forceRefetch: true }));
    const { requestId } = request;
    dispatch(gateOpened({ source, requestId }));
    try {
      const answer = await request.unwrap();
      // No answer at all: the API cache was reset under the request (the session ended meanwhile).
      dispatch(
        answer === undefined
          ? bannersRefused({ source, requestId, letThrough: false })
          : bannersAnswered({ source, requestId, banners: Array.isArray(answer.banners) ? answer.banners : [] }),
      );
    } catch (error) {
      dispatch(bannersRefused({ source, requestId, letThrough: classifyError(error as Parameters<typeof classifyError>[0]).kind === 'message' }));
    } finally {
      // The gate keeps the banners it shows; the cache entry is not needed once answered.
      request.unsubscribe();
    }
    dispatch(passThrough(source, modalId));
  };

/** The banners were closed (Continue, Escape or the close button): the modal behind them opens. */
export const bannersClosed =
  (source: BannerSource, modalId: ModalId): Thunk =>
  (dispatch) => {
    dispatch(carouselClosed({ source }));
    dispatch(passThrough(source, modalId));
  };
