import fs from 'node:fs';
import path from 'node:path';
import { migrationFiles } from './migrate';

describe('migration files', () => {
  test('the TypeScript ones under tsx and jest: every file of the folder, by name', () => {
    const files = fs.readdirSync(path.join(__dirname, 'migrations'));
    const found = migrationFiles(files);
    expect([...found.values()]).toEqual(files.filter((f) => f.endsWith('.ts')).sort());
    expect([...found.keys()][0]).toBe('202611250001_foundation');
  });

  test('the compiled ones (build/server): .js files, not their source maps or declarations', () => {
    const found = migrationFiles(['202611250002_accounts.js', '202611250001_foundation.js', '202611250001_foundation.js.map', '202611250003_game_sim.d.ts', 'README.md'], '.js');
    expect([...found]).toEqual([
      ['202611250001_foundation', '202611250001_foundation.js'],
      ['202611250002_accounts', '202611250002_accounts.js'],
    ]);
  });

  test('a name with both a .ts and a .js file loads once, from the kind that runs', () => {
    const both = ['202611250001_foundation.ts', '202611250001_foundation.js', '202611250002_accounts.js'];
    expect([...migrationFiles(both, '.ts')]).toEqual([
      ['202611250001_foundation', '202611250001_foundation.ts'],
      ['202611250002_accounts', '202611250002_accounts.js'],
    ]);
    expect([...migrationFiles(both, '.js')]).toEqual([
      ['202611250001_foundation', '202611250001_foundation.js'],
      ['202611250002_accounts', '202611250002_accounts.js'],
    ]);
    // The running kind decides, whatever the listing's order.
    expect(migrationFiles([...both].reverse(), '.ts').get('202611250001_foundation')).toBe('202611250001_foundation.ts');
  });
});
