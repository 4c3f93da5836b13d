// What the real-server e2e files share: the pinned build, or one clear line why it is skipped.
// The real Temporal server (issue 37 item 2) is built by `npm run setup` (scripts/tools/temporal-server.ts)
// with the Go toolchain; where there is none, the real-server tests are skipped with one line.
import { describe, it } from 'vitest';
import { findGo, TEMPORAL_SERVER_DIR, temporalServerAt } from '../../scripts/tools/temporal-server';
import type { RealServerBinaries } from '../../temporal/real-server';

/** The pinned server's binaries, or undefined with the reason skipped (no Go); with Go but no build, a failure that says what to run. */
export function realServerOrSkip(what: string): RealServerBinaries | undefined {
  if (!findGo()) {
    describe(what, () => {
      it.skip('skipped: no Go toolchain (go on PATH or /usr/local/go), so the real Temporal server cannot be built here', () => {});
    });
    return undefined;
  }
  const bin = temporalServerAt(TEMPORAL_SERVER_DIR);
  if (!bin?.uiServer) throw new Error(`the real Temporal server is not built in ${TEMPORAL_SERVER_DIR}: npm run setup -- --only temporal-server (its log: .tools/setup-tools.log)`);
  return bin;
}
