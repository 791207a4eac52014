import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useGetProfileQuery } from '../../core/accountApi';
import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { useGetWalletQuery } from '../../core/walletApi';
import { EditBankNameModal } from '../../components/EditBankNameModal';
import { EmptyState } from '../../components/EmptyState';
import { Modal } from '../../components/Modal';
import { Skeleton } from '../../components/Skeleton';
import { copyText } from '../../lib/copy';
import { emptyDepositTextKey, useOnline } from './availability';
import { BankTransfer, type CopyOutcome } from './BankTransfer';
import { banksForCurrency } from './bankRules';
import { copyNeedsEnglishName, copyTextFor } from './copyRules';
import { useGetDepositLookupQuery, type DepositBank } from './depositApi';
import { MethodTabs, type MethodTab } from './MethodTabs';
import { bankDisplayName } from './names';
import { QrDeposit } from './QrDeposit';
import { isQrBank, QR_BANKS, type QrBank } from './qrBanks';
import { SlipUpload } from './SlipUpload';
import { useQrDeposit } from './useQrDeposit';
import { WalletAccounts } from './WalletAccounts';
import '../../components/forms.css';
import './deposit.css';

/** The id of this modal in the modal stack; home's deposit widget opens it with modalOpened('deposit'). */
export const DEPOSIT_MODAL = 'deposit';

type Method = 'bank' | 'qr' | 'wallet';

/**
 * The deposit modal (spec §2): bank transfer (accounts to copy, slip upload), QR per bank, and the
 * mobile-wallet link, fed by the deposit lookup.
 */
export default function DepositModal({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lookup = useGetDepositLookupQuery(useAppSelector(selectLocale));
  const { data: wallet } = useGetWalletQuery();
  // Issue 40 item 9: the accounts of the player's market only, decided by their currency (a Thai player sees no LAK account).
  const currency = useGetProfileQuery().data?.bankAccount?.currency;
  const online = useOnline();
  const slipId = useId();
  const [method, setMethod] = useState<Method | null>(null);
  const [qrBank, setQrBank] = useState<QrBank | null>(null);
  const [copy, setCopy] = useState<CopyOutcome | null>(null);
  const [nameFirst, setNameFirst] = useState<DepositBank | null>(null);

  const channels = useMemo(() => banksForCurrency(lookup.data?.banks ?? [], currency), [lookup.data, currency]);
  const banks = useMemo(() => channels.filter((entry) => entry.bankType !== 'PAYMENT'), [channels]);
  const qrEntries = useMemo(() => {
    const all = channels;
    // KBANK's QR is its PromptPay auto deposit; WW and E2P are payment types that only take QRs.
    const usable = all.filter((entry) => isQrBank(entry.bankCode) && (entry.bankType === 'PAYMENT' || entry.mode === 'AUTO'));
    return QR_BANKS.flatMap((bank) => {
      const entry = usable.find((e) => e.bankCode === bank);
      return entry ? [{ bank, entry }] : [];
    });
  }, [channels]);
  const qrBanks = useMemo(() => qrEntries.map((e) => e.bank), [qrEntries]);
  const wallets = lookup.data?.wallets ?? [];
  const qr = useQrDeposit(qrBanks);

  const tabs: MethodTab<Method>[] = [
    ...(banks.length > 0 ? [{ key: 'bank' as const, label: t('deposit.methods.bank') }] : []),
    ...(qrEntries.length > 0 ? [{ key: 'qr' as const, label: t('deposit.methods.qr') }] : []),
    ...(wallets.length > 0 ? [{ key: 'wallet' as const, label: t('deposit.methods.wallet') }] : []),
  ];
  const selected = tabs.find((tab) => tab.key === method)?.key ?? tabs[0]?.key ?? null;
  const selectedQrBank = qrBank ?? qrBanks.find((bank) => qr.state[bank].machine.status === 'shown') ?? qrBanks[0] ?? 'KBANK';

  const doCopy = useCallback(
    async (entry: DepositBank) => {
      const text = copyTextFor(entry, bankDisplayName(entry.bank, i18n.language));
      const ok = await copyText(text);
      setCopy({ bankCode: entry.bankCode, ok, text });
    },
    [i18n.language],
  );

  const onCopy = (entry: DepositBank) => {
    setCopy(null);
    if (copyNeedsEnglishName(entry, wallet?.bankAccount)) {
      setNameFirst(entry);
      return;
    }
    void doCopy(entry);
  };

  return (
    <>
      <Modal id={DEPOSIT_MODAL} title={t('deposit.title')} onClose={onClose}>
        {lookup.isLoading ? (
          <Skeleton rows={3} variant="card" />
        ) : selected === null ? (
          <EmptyState text={t(emptyDepositTextKey(online))} testId="deposit-unavailable">
            <button type="button" className="button" onClick={() => void lookup.refetch()}>
              {t('deposit.retry')}
            </button>
          </EmptyState>
        ) : (
          <MethodTabs<Method> label={t('deposit.methods.label')} tabs={tabs} selected={selected} onSelect={setMethod}>
            {selected === 'bank' && (
              <>
                <BankTransfer banks={banks} copy={copy} onCopy={onCopy} slipId={slipId} />
                <SlipUpload id={slipId} />
              </>
            )}
            {selected === 'qr' && (
              <QrDeposit
                banks={qrEntries}
                selected={selectedQrBank}
                onSelect={setQrBank}
                state={qr.state}
                now={qr.now}
                onCreate={(bank, amount) => void qr.create(bank, amount)}
                onCancel={(bank, id) => void qr.cancel(bank, id)}
                onLeave={onClose}
              />
            )}
            {selected === 'wallet' && <WalletAccounts wallets={wallets} />}
          </MethodTabs>
        )}
      </Modal>
      {nameFirst && wallet && (
        <EditBankNameModal
          bankCode={wallet.bankAccount.bankCode}
          initialName={wallet.bankAccount.bankAccountName}
          onClose={() => setNameFirst(null)}
          onSaved={() => {
            // Spec §4: after the name is saved the account is copied.
            const entry = nameFirst;
            setNameFirst(null);
            void doCopy(entry);
          }}
        />
      )}
    </>
  );
}
