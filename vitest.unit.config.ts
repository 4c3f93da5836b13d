// `npm run test:unit`: the unit tests alone, without PostgreSQL, Temporal, a workflow bundle or a
// spawned process (no global setup; the tests that start the project's own commands are in
// test/processes/): the fast loop while editing pure logic. `npm test` runs them too, with the rest.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
