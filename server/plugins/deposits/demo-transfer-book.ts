import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { TransferBook } from '../../adapters/slip-verify';
import { findDemoTransfer } from './repository';

/** The slip verification simulator's view of the demo bank: the transfers it recorded, by reference. */
export class DemoBankTransferBook implements TransferBook {
  constructor(private readonly db: Kysely<DB>) {}

  async find(transRef: string) {
    const t = await findDemoTransfer(this.db, transRef);
    if (!t) return null;
    return {
      transRef: t.trans_ref,
      sendingBank: t.sending_bank,
      amountSatang: Number(t.amount),
      sender: { bankCode: t.sender_bank_code, accountNo: t.sender_account_no, accountName: t.sender_account_name },
      receiver: { bankCode: t.receiver_bank_code, accountNo: t.receiver_account_no, promptPayId: t.receiver_promptpay_id, accountName: t.receiver_name },
      transferredAt: new Date(t.transferred_at),
    };
  }
}
