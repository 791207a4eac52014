import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

// The import layers' lint rule (scripts/lint/layers.cjs, wired in eslint.config.mjs): each zone refuses a
// deliberately upward import and takes a downward one. Linted in memory, at paths inside the repository.
const ROOT = path.resolve(__dirname, '../..');
const layers = require('../../scripts/lint/layers.cjs') as { rule: unknown };

function lint(file: string, code: string): string[] {
  const linter = new Linter({ cwd: ROOT });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser as Linter.Parser }, plugins: { local: { rules: { layers: layers.rule } } as never }, rules: { 'local/layers': 'error' } }],
    path.join(ROOT, file),
  );
  return messages.map((m) => m.message);
}

const refused: [string, string][] = [
  ['src/core/x.ts', "import { buildRoutes } from '../app/router';"],
  ['src/core/x.ts', "import { selectMoveState } from '../features/wallet/flowSlices';"],
  ['src/core/x.ts', "import { Modal } from '../components/Modal';"],
  ['src/components/x.tsx', "import { selectMoveState } from '../features/wallet/flowSlices';"],
  ['src/features/wallet/x.ts', "import { bonusApi } from '../bonus/bonusApi';"],
  ['src/features/wallet/x.ts', "import { makeStore } from '../../app/store';"],
  ['src/features/wallet/x.ts', "export { makeStore } from '../../app/store';"],
  ['src/features/wallet/x.ts', "const page = () => import('../../app/router');"],
  ['src/lib/x.ts', "import { api } from '../core/api';"],
  ['src/staff/x.ts', "import { api } from '../core/api';"],
  ['src/core/x.ts', "import { renderWithStore } from '../test/support/render';"],
  ['src/app/x.ts', "import { StaffApp } from '../staff/StaffApp';"],
  // the server (ARCHITECTURE.md "Server layers")
  ['server/db/x.ts', "import { buildApp } from '../app';"],
  ['server/db/x.ts', "import { lockPlayer } from '../ledger';"],
  ['server/lib/x.ts', "import wallet from '../plugins/wallet';"],
  ['server/lib/x.ts', "import type { DB } from '../db/schema';"],
  ['server/lib/x.ts', "import { readSetting } from '../settings';"],
  ['server/config.ts', "import { createDb } from './db';"],
  ['server/config.ts', "import { startJobLease } from './jobs/lease';"],
  ['server/settings/x.ts', "import { seedDemo } from '../demo';"],
  ['server/ledger/x.ts', "import wallet from '../plugins/wallet';"],
  ['server/ledger/x.ts', "import { startReconciler } from '../jobs/reconcile';"],
  ['server/transfers/x.ts', "import auth from '../http/auth';"],
  ['server/plugins/wallet/x.ts', "import { findDefinition } from '../bonus/repository';"],
  ['server/plugins/wallet/x.ts', "import { seedDemo } from '../../demo';"],
  ['server/plugins/wallet/x.ts', "import { freshDb } from '../../test/support/helper';"],
  ['server/plugins/wallet/x.ts', "const sim = () => import('../../simulators/game-sim');"],
  ['server/plugins/wallet/x.ts', "import auth from '../../http/auth';"],
  ['server/http/x.ts', "import demoBank from '../simulators/demo-bank';"],
  ['server/jobs/x.ts', "import { chatMediaDir } from '../plugins/chat/uploads';"],
  ['server/adapters/sms/x.ts', "import wallet from '../../plugins/wallet';"],
];

const taken: [string, string][] = [
  ['src/features/wallet/x.ts', "import type { RootState } from '../../app/store';"],
  ['src/features/wallet/x.ts', "import { api } from '../../core/api';"],
  ['src/features/wallet/x.ts', "import { Modal } from '../../components/Modal';"],
  ['src/features/wallet/x.ts', "import { formatAmount } from '../../lib/format';"],
  ['src/features/wallet/x.ts', "import { selectMoveState } from './flowSlices';"],
  ['src/app/x.ts', "import { selectMoveState } from '../features/wallet/flowSlices';"],
  ['src/prerender/x.ts', "import { buildRoutes } from '../app/router';"],
  ['server/plugins/wallet/x.ts', "import bonus from '../bonus';"],
  ['server/plugins/wallet/x.ts', "import bonus from '../bonus/index';"],
  ['server/plugins/wallet/x.ts', "import { postEntry } from '../../ledger';"],
  ['server/app.ts', "import demoBank from './simulators/demo-bank';"],
  ['server/start.ts', "import { seedDemo } from './demo';"],
  ['server/cli/x.ts', "import { seedDemo } from '../demo';"],
  ['server/db/x.ts', "import { hashPassword } from '../lib/password';"],
  ['server/demo/x.ts', "import { upsertDefinition } from '../plugins/bonus/repository';"],
];

describe('import layers (scripts/lint/layers.cjs)', () => {
  it.each(refused)('refuses in %s: %s', (file, code) => {
    expect(lint(file, code)).toEqual([expect.stringContaining('may not import')]);
  });
  it.each(taken)('takes in %s: %s', (file, code) => {
    expect(lint(file, code)).toEqual([]);
  });
});
