import fs from 'node:fs';
import { buildSpa, CHROMIUM } from './harness';

export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  buildSpa();
}
