// @ts-check
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
// The import layers of src/ and server/: one rule, one table of zones (scripts/lint/layers.cjs LAYER_ZONES; add a
// server or SPA zone there, not a new rule here).
import layers from './scripts/lint/layers.cjs';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', 'data/**', '.tmp/**', 'public/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, local: { rules: { layers: layers.rule } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'local/layers': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use RTK Query endpoints (src/core/api.ts).' }],
    },
  },
  {
    // Tests and test support may reach any layer (they build the app to test it).
    files: ['**/*.test.ts', '**/*.test.tsx', 'src/test/**', 'server/test/**', 'test/**'],
    rules: { 'local/layers': 'off' },
  },
  {
    // shared/ holds what the SPA and the server both use (wire types, error codes, the gift-link key): neither half
    // owns it, so it imports neither.
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../**'], message: 'shared/ imports nothing from src/, server/ or elsewhere in the repository.' }] }],
    },
  },
  {
    // The server carries no async context (server/lib/request-context.ts): on Node 20 an AsyncLocalStorage or an async
    // hook turns on promise hooks for every promise of the process, about a tenth of a transfer's CPU. Tests may.
    files: ['server/**'],
    ignores: ['server/test/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'node:async_hooks', message: 'Pass the request (server/lib/request-context.ts), not an async context.' }, { name: 'async_hooks', message: 'Pass the request (server/lib/request-context.ts), not an async context.' }] },
      ],
    },
  },
  {
    // Only the SPA is bound to RTK Query; the server and tests may use fetch.
    files: ['server/**', 'test/**', 'scripts/**', '**/*.test.ts', '**/*.test.tsx', 'src/test/**', 'src/core/api.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
);
