// `npm start -- --search opensearch` stopped with SIGTERM to the launcher alone (as a process
// manager or `kill <launcherPid from stack.json>` stops it: the JVM gets no signal but the
// launcher's) while it restarts a JVM killed with -9: the launcher stops the node it is starting
// too, and exits; no OpenSearch JVM is left, checked by pid. Then a second start, stopped the same
// way while its first node is still starting: no JVM left either. Ctrl-C to the whole process group and
// the restart itself: test/e2e/start-opensearch.test.ts.
import { describe, expect, it } from 'vitest';
import { OPENSEARCH_RUNS } from '../helpers/opensearch';
import { eventually } from '../helpers/eventually';
import { allGone, jvmPids, oneStackPerFile, parentOf, running, search, spawnNpmStart, stopGroup } from './start-opensearch-suite';

const stack = oneStackPerFile();

describe.skipIf(!OPENSEARCH_RUNS)('npm start -- --search opensearch, stopped with SIGTERM mid-restart', () => {
  it('SIGTERM to the launcher while it restarts the JVM killed (-9): the launcher exits, neither JVM is left', async () => {
    const first = jvmPids(stack().dataDir);
    expect(first).toHaveLength(1);
    const r = await search(stack(), 'type=studio');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-search-backend')).toMatch(/^(opensearch|postgres-fallback)$/);
    process.kill(first[0]!, 'SIGKILL');
    // the launcher waits 2 s, then starts a new JVM: stop it while that one is still starting
    const second = await eventually(async () => {
      const now = jvmPids(stack().dataDir);
      return now.length === 1 && now[0] !== first[0] && now[0]!;
    }, 30_000, 100);
    process.kill(stack().launcherPid, 'SIGTERM');
    expect(await allGone([stack().launcherPid], 90_000)).toBe(true);
    expect(running(second)).toBe(false);
    expect(jvmPids(stack().dataDir)).toEqual([]);
    expect(stack().output()).toContain('[stack] stopped');
    await stack().exited;
  }, 150_000);

  it('SIGTERM to the launcher while its OpenSearch node is still starting (before the stack): it exits, no JVM is left', async () => {
    // the file's first stack is stopped by now: this second one is alone too
    const l = await spawnNpmStart();
    try {
      const jvm = await eventually(async () => jvmPids(l.dataDir)[0] ?? false, 120_000, 100);
      const launcher = parentOf(jvm);
      process.kill(launcher, 'SIGTERM');
      expect(await allGone([launcher], 60_000)).toBe(true);
      expect(running(jvm)).toBe(false);
      expect(jvmPids(l.dataDir)).toEqual([]);
      expect(l.output()).toContain('[stack] stopped');
      expect(l.output()).not.toContain('Ready in');
    } finally {
      await stopGroup({ ...l, launcherPid: 0 });
    }
  }, 200_000);
});
