import type { Config } from 'jest';

/** End-to-end journeys: the real server and headless Chromium (Debian's), one file at a time. */
const config: Config = {
  rootDir: '../..',
  displayName: 'e2e',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.e2e.ts'],
  globalSetup: '<rootDir>/test/e2e/global-setup.ts',
  testTimeout: 120_000,
  maxWorkers: 1,
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', isolatedModules: true }, diagnostics: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(?:.*/node_modules/)?(?:jose|content-disposition|cookie|set-cookie-parser)/)'],
};

export default config;
