import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // chDB allows one active data folder per process: every test file gets its own process.
    pool: 'forks',
    maxWorkers: 2,
    // Suites that spawn the service run the compiled dist/: built once, before them all.
    globalSetup: ['./test/support/build-server.ts', './test/support/test-run-folder.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A poll waits for something that will happen (a page re-rendering, a job's write); on two
    // shared cores with a browser and a service running, vitest's default second was too short.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
