import type { BannerSource } from './bannerApi';

/**
 * Every modal id the app puts on the modal stack, in one place: the stack's actions, its selectors, `Modal`,
 * `useModal` and `useModalWhile` take a `ModalId`, so an id with a typo does not compile. A feature opens another
 * feature's modal by its id here (`modalOpened(MODAL.deposit)`, app/ModalHost renders it) instead of declaring it
 * again; a new modal adds its line here.
 */
export const MODAL = {
  agreement: 'agreement',
  bonus: 'bonus',
  bonusCancelConfirm: 'bonusCancelConfirm',
  bonusCancelFailed: 'bonusCancelFailed',
  changePassword: 'changePassword',
  conditions: 'conditions',
  couponClaim: 'couponClaim',
  deposit: 'deposit',
  editBankName: 'editBankName',
  editProfile: 'editProfile',
  gameAccount: 'game-account',
  howtoVideo: 'howtoVideo',
  invite: 'invite',
  promotion: 'promotion',
  realityCheck: 'realityCheck',
  refund: 'refund',
  restrictionConfirm: 'restrictionConfirm',
  sessionLimit: 'sessionLimit',
  slipHistory: 'slipHistory',
  spinPrize: 'spinPrize',
  spinWheel: 'spinWheel',
  statementReceipt: 'statementReceipt',
  transfer: 'transfer',
  withdraw: 'withdraw',
} as const;

/** A modal of the registry above. */
export type NamedModalId = (typeof MODAL)[keyof typeof MODAL];

/**
 * The ids on the stack: a registered modal, the "could not load" dialog of a lazily loaded one
 * (components/retryableLazy), and the banners shown before a home modal (components/useBannerGate).
 */
export type ModalId = NamedModalId | `${NamedModalId}-failed` | `banners-${BannerSource}`;
