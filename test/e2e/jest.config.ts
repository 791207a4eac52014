import type { Config } from 'jest';

/**
 * End-to-end journeys: the real server and headless Chromium (Debian's), two files at a time. Each file starts its
 * own server (its own port and data directory) and its own browser, so two never share state. The journeys mostly
 * wait (for a server's poller, a socket event, an animation): one at a time kept a two-core machine about a third
 * busy, and the suite took 12 min 14 s; two at a time 7 min 28 s (2026-11-28, the same checkout).
 */
const config: Config = {
  rootDir: '../..',
  displayName: 'e2e',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.e2e.ts'],
  globalSetup: '<rootDir>/test/e2e/global-setup.ts',
  testTimeout: 120_000,
  maxWorkers: 2,
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', isolatedModules: true }, diagnostics: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(?:.*/node_modules/)?(?:jose|content-disposition|cookie|set-cookie-parser)/)'],
};

export default config;
