import { defineConfig } from 'vitest/config';
import { isSurvivablePostgresFault } from './lib/process-guard';

export default defineConfig({
  test: {
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    // Two cores: two files at a time, each with its own database and task queue.
    maxWorkers: 2,
    reporters: ['default'],
    // The postgres.js faults of a lost connection (a closed socket, the array-type lookup of a new
    // connection), thrown outside any query when a test stops PostgreSQL under a pool: the
    // processes survive them (lib/process-guard.ts), and so does a test file. Every other unhandled
    // error still fails the run.
    onUnhandledError: (error) => !isSurvivablePostgresFault(error),
  },
});
