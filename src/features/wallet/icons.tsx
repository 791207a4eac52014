import {
  DepositIcon as Deposit,
  Icon,
  RefreshIcon as Refresh,
  TransferIcon as Transfer,
  WithdrawIcon as Withdraw,
} from '../../components/icons';

/** Widget icons (Feather-style strokes, components/icons at 28 px), decorative: the widget carries the accessible name. */
const SIZE = 28;

export const DepositIcon = () => <Deposit size={SIZE} />;
export const WithdrawIcon = () => <Withdraw size={SIZE} />;
export const TransferIcon = () => <Transfer size={SIZE} />;
export const RefreshIcon = () => <Refresh size={SIZE} />;

export const SpinIcon = () => (
  <Icon size={SIZE}>
    <circle cx="12" cy="12" r="9" />
    <line x1="12" y1="3" x2="12" y2="21" />
    <line x1="3" y1="12" x2="21" y2="12" />
    <line x1="5.6" y1="5.6" x2="18.4" y2="18.4" />
  </Icon>
);
export const InviteIcon = () => (
  <Icon size={SIZE}>
    <path d="M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2" />
    <circle cx="9" cy="7" r="4" />
    <path d="M23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8" />
  </Icon>
);
export const BonusIcon = () => (
  <Icon size={SIZE}>
    <polyline points="20 12 20 22 4 22 4 12" />
    <rect x="2" y="7" width="20" height="5" />
    <line x1="12" y1="22" x2="12" y2="7" />
    <path d="M12 7H7.5a2.5 2.5 0 0 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 0 0 0-5C13 2 12 7 12 7z" />
  </Icon>
);
export const RefundIcon = () => (
  <Icon size={SIZE}>
    <polyline points="1 4 1 10 7 10" />
    <path d="M3.5 15a9 9 0 1 0 2.1-9.4L1 10" />
  </Icon>
);
