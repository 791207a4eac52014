import type { Config } from 'jest';

// ESM-only packages that jest (CommonJS on Node 20) must transform.
const esm = ['jose', 'content-disposition', 'cookie', 'set-cookie-parser', 'until-async', 'rettime', '@open-draft/[^/]+', '@mswjs/[^/]+'];
const transformIgnorePatterns = [`/node_modules/(?!(?:.*/node_modules/)?(?:${esm.join('|')})/)`];
const transform: Config['transform'] = {
  '^.+\\.(m?js|[tj]sx?)$': ['ts-jest', { tsconfig: { jsx: 'react-jsx', module: 'commonjs', allowJs: true, isolatedModules: true }, diagnostics: false }],
};

const server = (name: string, setup: string): NonNullable<Config['projects']>[number] => ({
  displayName: name,
  testEnvironment: 'node',
  roots: ['<rootDir>/server'],
  testMatch: ['**/*.test.ts'],
  setupFiles: [setup],
  transform,
  transformIgnorePatterns,
});

/**
 * client: the SPA under jsdom. server: API suites on SQLite, always. server:pg: the same suites on
 * PostgreSQL, only when DATABASE_URL is set (each test file gets its own fresh schema).
 */
const config: Config = {
  // Server suites build real databases (a fresh PostgreSQL schema each) and hash passwords with scrypt: on a
  // busy 2-core machine a test can take longer than jest's 5 s default. Jest reads testTimeout from the root
  // config only (a project's own testTimeout is silently ignored), so it is set here, for every project.
  testTimeout: 30_000,
  projects: [
    {
      displayName: 'client',
      testEnvironment: 'jest-fixed-jsdom',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
      moduleNameMapper: {
        '\\.(css)$': '<rootDir>/src/test/style-stub.ts',
        '\\.(png|jpg|svg|woff2?)$': '<rootDir>/src/test/file-stub.ts',
        // The app asks webpack for one part of a language's texts (src/core/localeParts.ts); tests load the whole file.
        '^(.+/locales/[a-z]+\\.json)\\?part=(?:public|user)$': '$1',
      },
      transform,
      transformIgnorePatterns,
    },
    server('server', '<rootDir>/server/test/support/setup-sqlite.ts'),
    ...(process.env.DATABASE_URL ? [server('server:pg', '<rootDir>/server/test/support/setup-postgres.ts')] : []),
  ],
};

export default config;
