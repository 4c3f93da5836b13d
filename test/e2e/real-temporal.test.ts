// The intake lifecycle and the worker-versioning rollout (test/integration/intake-lifecycle and
// worker-versioning) run again, unchanged, against the real Temporal server: a vitest run of its own
// whose global setup (TEST_TEMPORAL=server) starts the pinned server on PostgreSQL instead of the
// dev server (issue 37 item 2); and the door's limits (temporal-door, issue 43 item 2).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { realServerOrSkip } from './real-temporal-suite';

const FILES = ['test/integration/intake-lifecycle.test.ts', 'test/integration/worker-versioning.test.ts', 'test/integration/agent-lane.test.ts', 'test/integration/temporal-door.test.ts'];

if (realServerOrSkip('the lifecycle and the versioning rollout on the real Temporal server')) {
  describe('on the real Temporal server', () => {
    it(`${FILES.map((f) => path.basename(f, '.test.ts')).join(', ')} pass unchanged`, () => {
      const vitest = path.join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      // One file at a time: this run sits beside the suite's own two, on two cores.
      const r = spawnSync(process.execPath, [vitest, 'run', '--no-file-parallelism', ...FILES], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, TEST_TEMPORAL: 'server', NO_COLOR: '1', FORCE_COLOR: '0' },
        encoding: 'utf8',
        timeout: 15 * 60_000,
      });
      const out = `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
      const summary = out.split('\n').filter((l) => /Test Files|Tests |FAIL|✗|×/.test(l)).join('\n');
      expect(r.status, `${summary}\n${out.slice(-3000)}`).toBe(0);
      expect(out).toMatch(new RegExp(`Test Files\\s+${FILES.length} passed`));
    }, 16 * 60_000);
  });
}
