import crypto from 'node:crypto';

/*
 * Transfer ids (issue 13): UUID version 7 (RFC 9562), time-ordered. The id is the game_transfers primary key and is
 * in the keys of its journal entries (transfer:{id}:open/close) and statement line (ref_id): random v4 ids put every
 * new transfer on a random leaf page of those three indexes, so each group commit wrote (and fsynced, and later
 * checkpointed) about one page per index per transfer; time-ordered ids append to the indexes' last pages. The
 * id stays unguessable enough for what it is (74 random bits; it is never a credential) and is still a UUID.
 */

const POOL = 16 * 10;
const pool = Buffer.alloc(POOL);
let used = POOL;

function random10(): Buffer {
  if (used >= POOL) {
    crypto.randomFillSync(pool);
    used = 0;
  }
  const b = pool.subarray(used, used + 10);
  used += 10;
  return b;
}

const hex = (b: Buffer, from: number, to: number) => b.toString('hex', from, to);

/** A new UUIDv7: 48 bits of Unix milliseconds, version 7, 12 + 62 random bits, variant 10. */
export function newTransferId(nowMs: number = Date.now()): string {
  const b = Buffer.alloc(16);
  b.writeUIntBE(nowMs, 0, 6);
  random10().copy(b, 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  return `${hex(b, 0, 4)}-${hex(b, 4, 6)}-${hex(b, 6, 8)}-${hex(b, 8, 10)}-${hex(b, 10, 16)}`;
}
