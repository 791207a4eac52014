import { useCallback, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { BannerSource } from '../core/bannerApi';
import { gateLeft } from '../core/bannerGateSlice';
import { bannerGateOpened, bannersClosed, selectBannerGate } from '../core/bannerGateStore';
import { useAppDispatch, useAppSelector } from '../core/hooks';
import type { ModalId } from '../core/modalIds';
import { BannerCarousel } from './BannerCarousel';
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
 * opens directly; otherwise the banners show first and closing them opens the modal. The gate is the store's machine
 * (core/bannerGateSlice, one per source); this hook is its view.
 */
export function useBannerGate({ source, modalId, title }: Options): Gate {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const gate = useAppSelector((state) => selectBannerGate(state, source));
  // The gate belongs to its opener: when the opener goes, so do its banners.
  useEffect(() => () => void dispatch(gateLeft({ source })), [dispatch, source]);
  const open = useCallback(() => void dispatch(bannerGateOpened(source, modalId)), [dispatch, modalId, source]);

  const view =
    gate.status === 'showing' ? (
      <BannersDialog id={`banners-${source}`} title={title} onClose={() => dispatch(bannersClosed(source, modalId))}>
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
