// @ts-check
import path from 'node:path';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Import boundaries (STYLE.md): a feature imports no other feature; shared code (src/app excepted,
 * which wires features together) imports no feature. Resolved from the real paths, so `../other/x`
 * and `../../features/other/x` are both caught.
 */
const boundaries = {
  meta: { type: 'problem', messages: { crossFeature: '{{from}} may not import {{to}}' }, schema: [] },
  create(context) {
    const file = path.resolve(context.filename);
    const src = path.resolve('src');
    const area = (p) => {
      const rel = path.relative(src, p).split(path.sep);
      if (rel[0] === '..' || rel.length < 2) return null;
      return rel[0] === 'features' ? `features/${rel[1]}` : rel[0];
    };
    const from = area(file);
    const check = (node) => {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = area(path.resolve(path.dirname(file), spec));
      if (!from || !to || from === to || !to.startsWith('features/')) return;
      if (from.startsWith('features/') || from === 'components' || from === 'lib') {
        context.report({ node, messageId: 'crossFeature', data: { from, to } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', '.tmp/**', 'public/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, local: { rules: { boundaries } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'local/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use RTK Query endpoints (src/core/api.ts).' }],
    },
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
