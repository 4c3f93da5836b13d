// What the real-server e2e files share: the pinned build, or one clear line why it is skipped.
// The real Temporal server (issue 37 item 2) is built by `npm run setup` (scripts/tools/temporal-server.ts)
// with the Go toolchain; where there is none, the real-server tests are skipped with one line.
import { describe, it } from 'vitest';
import { ensureTemporalServer, findGo } from '../../scripts/tools/temporal-server';
import type { RealServerBinaries } from '../../temporal/real-server';

/** The pinned server's binaries (built now if `npm run setup` did not), or undefined with the reason skipped. */
export function realServerOrSkip(what: string): RealServerBinaries | undefined {
  if (!findGo()) {
    describe(what, () => {
      it.skip('skipped: no Go toolchain (go on PATH or /usr/local/go), so the real Temporal server cannot be built here', () => {});
    });
    return undefined;
  }
  return ensureTemporalServer().bin;
}
