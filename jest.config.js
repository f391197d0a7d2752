/** Jest in ESM mode (react-router 8 is ESM-only): @swc/jest compiles TS/TSX to ES modules. */
const swc = [
  '@swc/jest',
  {
    jsc: { target: 'es2023', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
    module: { type: 'es6' },
  },
];
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.(t|j)sx?$': swc },
  testMatch: ['<rootDir>/tests/unit/**/*.test.ts', '<rootDir>/tests/unit/**/*.test.tsx', '<rootDir>/tests/api/**/*.test.ts'],
  testTimeout: 60000,
  // One migrated embedded database in a folder of the run; each test's fresh database is a copy of it (tests/helpers/database.ts).
  globalSetup: '<rootDir>/tests/helpers/pglite-template.ts',
  globalTeardown: '<rootDir>/tests/helpers/pglite-template-teardown.ts',
  // A console.error or console.warn fails the test, as in the browser journeys (tests/helpers/console-fails.ts).
  setupFilesAfterEnv: ['<rootDir>/tests/helpers/console-fails.ts'],
  // A worker keeps ~15 MB of every test file it ran (Jest's ESM module contexts), and the files after it ran up to three
  // times slower than alone; a worker whose heap passed 300 MB after a file is replaced by a fresh one. The whole run on
  // PGlite: 531 s → 377 s, 1,029 → 719 s of CPU (docs/decisions/069-jest-workers-and-one-visit-per-page.md).
  workerIdleMemoryLimit: '300MB',
};
