/** The ledger's public surface (docs/ledger.md). Other features move money only through these. */
export {
  SYSTEM_ACCOUNTS,
  walletAccount,
  gameAccount,
  systemAccount,
  accountCode,
  ensureAccounts,
  lockAccounts,
  LedgerError,
  type AccountRef,
  type SystemAccountName,
  type LedgerAccount,
} from './accounts';
export {
  postEntry,
  reverseEntry,
  creditWallet,
  debitWallet,
  walletBalance,
  gameBalances,
  findEntry,
  InsufficientFundsError,
  AccountMovedError,
  DuplicateEntryError,
  type EntryInput,
  type PostingInput,
  type PostedEntry,
  type WalletMovement,
  type JournalObserver,
} from './journal';
export { runAudit, formatAuditReport, type AuditReport } from './audit';
export { parseBaht, parseWireBaht, toBaht, formatSatang } from './money';
export { idempotent } from './idempotency';
export { writeStatement, setStatementStatus, statementLine, statementStatus, type StatementInput } from './statement';
export { moveMoney, MovementRefused, type Movement, type MovementPart } from './movement';
export { insertPlayer, lockPlayer, type NewPlayer } from './players';
