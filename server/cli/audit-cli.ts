/**
 * npm run audit:ledger — checks the ledger invariants on the configured database (DATABASE_URL for
 * PostgreSQL, otherwise the SQLite file in DATA_DIR), read-only. Exit code 0: every invariant holds;
 * 1: violations (listed); 2: the audit could not run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createDb } from '../db';
import { formatAuditReport, runAudit } from '../ledger/audit';

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    console.error(`DATABASE_URL must be a postgres:// URL`);
    return 2;
  }
  if (!databaseUrl && !fs.existsSync(path.join(dataDir, 'wallet.sqlite'))) {
    console.error(`no database: ${path.join(dataDir, 'wallet.sqlite')} does not exist (set DATA_DIR or DATABASE_URL)`);
    return 2;
  }
  const database = createDb({ databaseUrl, dataDir });
  try {
    const report = await runAudit(database.db);
    const out = formatAuditReport(report);
    if (report.ok) console.log(out);
    else console.error(out);
    return report.ok ? 0 : 1;
  } catch (e) {
    console.error(`ledger audit could not run: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
