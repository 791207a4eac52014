import { useCallback, useEffect, useReducer, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { classifyError } from '../core/apiErrors';
import { useLazyGetBannersQuery, type BannerSource } from '../core/bannerApi';
import { useAppDispatch, useAppSelector } from '../core/hooks';
import type { ModalId } from '../core/modalIds';
import { modalOpened } from '../core/modalSlice';
import { selectRestriction } from '../core/playLimits';
import { BannerCarousel } from './BannerCarousel';
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
import { Modal } from './Modal';
import { useModalWhile } from './useModalWhile';

interface Options {
  source: BannerSource;
  /** The id of the modal behind the banners, opened through the modal stack (app/ModalHost renders it). */
  modalId: ModalId;
  /** The banners dialog's title (the name of what follows, e.g. 'Refund'). */
  title: string;
}

interface Gate {
  /** Ask for the banners, then show them or open the modal. Ignored while the gate is busy. */
  open: () => void;
  /** Banners are being fetched (the opener shows it as busy). */
  busy: boolean;
  /** The banners dialog while it shows; render it where the opener is. */
  view: ReactNode;
}

/**
 * Spec §2 Home modals: the banner list is fetched before the invite and refund modals open. Empty: the modal
 * opens directly; otherwise the banners show first and closing them opens the modal.
 */
export function useBannerGate({ source, modalId, title }: Options): Gate {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [fetchBanners] = useLazyGetBannersQuery();
  const [gate, send] = useReducer(bannerGateReducer, initialBannerGate);
  const current = useRef<BannerGate>(gate);
  current.current = gate;
  const restricted = useAppSelector((state) => selectRestriction(state) !== null);

  const open = useCallback(() => {
    if (current.current.status !== 'idle') return;
    // No banners while a time-out or self-exclusion runs (issue 15): straight to the modal.
    if (restricted) {
      dispatch(modalOpened(modalId));
      return;
    }
    const request = fetchBanners(source);
    const { requestId } = request;
    current.current = { status: 'fetching', requestId };
    send(gateOpened({ requestId }));
    request.unwrap().then(
      // No answer at all: the API cache was reset under the request (the session ended meanwhile).
      (answer) =>
        send(
          answer === undefined
            ? bannersRefused({ requestId, letThrough: false })
            : bannersAnswered({ requestId, banners: Array.isArray(answer.banners) ? answer.banners : [] }),
        ),
      (error: unknown) => send(bannersRefused({ requestId, letThrough: classifyError(error as Parameters<typeof classifyError>[0]).kind === 'message' })),
    );
  }, [dispatch, fetchBanners, modalId, restricted, source]);

  useEffect(() => {
    if (gate.status !== 'passed') return;
    dispatch(modalOpened(modalId));
    send(gateModalOpened());
  }, [dispatch, gate.status, modalId]);

  const view =
    gate.status === 'showing' ? (
      <BannersDialog id={`banners-${source}`} title={title} onClose={() => send(carouselClosed())}>
        <BannerCarousel banners={gate.banners} label={t('banners.label', { title })} />
      </BannersDialog>
    ) : null;
  return { open, busy: gate.status === 'fetching', view };
}

function BannersDialog({ id, title, onClose, children }: { id: ModalId; title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  useModalWhile(id, true);
  return (
    <Modal id={id} title={title} onClose={onClose}>
      {children}
      <button type="button" className="button button--primary banner-gate__continue" onClick={onClose}>
        {t('banners.continue')}
      </button>
    </Modal>
  );
}
