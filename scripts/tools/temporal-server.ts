// The real Temporal server, pinned (issue 37): temporal-server and temporal-sql-tool built from
// go.temporal.io/server, and the Web UI's server built from github.com/temporalio/ui-server, with
// `go install` (the Go module proxy is reachable here; release downloads are not). The server's
// module needs a newer Go than Debian's, so GOTOOLCHAIN names the one the go command fetches from
// the proxy. Built once into .tools/temporal-server-<version>/ (about 10 minutes on 2 idle cores, 20 or more
// on a busy machine; it says every 30 s that it still builds) and
// reused; TEMPORAL_SERVER_DIR points at a build made elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathVariable } from '../../lib/config';
import { TOOLS_DIR } from '../../temporal/cli-path';
import type { RealServerBinaries } from '../../temporal/real-server';

export const TEMPORAL_SERVER_VERSION = '1.32.2';
/**
 * The Web UI the pinned CLI bundles. Newer ui-server releases (2.58) need go.temporal.io/api and
 * echo versions the module proxy reachable here does not serve; 2.54.1 builds.
 */
export const UI_SERVER_VERSION = '2.54.1';
export const GO_TOOLCHAIN = 'go1.27.3';
export const TEMPORAL_SERVER_DIR = path.join(TOOLS_DIR, `temporal-server-${TEMPORAL_SERVER_VERSION}`);

/** The binaries in `dir`, when all are there. */
export function temporalServerAt(dir: string): RealServerBinaries | undefined {
  const bin: RealServerBinaries = {
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
    uiServer: path.join(dir, 'ui-server'),
  };
  if (![bin.server, bin.sqlTool, path.join(bin.schemaDir, 'temporal', 'versioned')].every((f) => fs.existsSync(f))) return undefined;
  return fs.existsSync(bin.uiServer!) ? bin : { ...bin, uiServer: undefined };
}

/** The go command: on PATH, else Go's default install place. */
export function findGo(): string | undefined {
  for (const d of [...(pathVariable() ?? '').split(path.delimiter), '/usr/local/go/bin', '/usr/lib/go/bin']) {
    if (d && fs.existsSync(path.join(d, 'go'))) return path.join(d, 'go');
  }
  return undefined;
}

/**
 * `go install`, saying every 30 s that it still builds (it prints nothing for minutes on its own):
 * the heartbeat lines go to stdout as they come, go's own stderr is kept for a failure's message.
 */
function goInstall(go: string, pkg: string, gobin: string, log: (line: string) => void): void {
  log(`go install ${pkg} (GOTOOLCHAIN=${GO_TOOLCHAIN})`);
  const heartbeat = 'GO="$1"; PKG="$2"; "$GO" install "$PKG" & pid=$!; t=0; while kill -0 $pid 2>/dev/null; do sleep 5; t=$((t+5)); if [ $((t % 30)) -eq 0 ] && kill -0 $pid 2>/dev/null; then echo "  still building $PKG: $((t / 60)) min $((t % 60)) s"; fi; done; wait $pid';
  const r = spawnSync('bash', ['-c', heartbeat, 'go-install', go, pkg], {
    encoding: 'utf8',
    env: { PATH: pathVariable() ?? '', HOME: os.homedir(), GOTOOLCHAIN: GO_TOOLCHAIN, GOBIN: gobin, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
    stdio: ['ignore', 'inherit', 'pipe'],
    timeout: 45 * 60_000,
  });
  if (r.status !== 0) throw new Error(`go install ${pkg} failed: ${`${r.stderr ?? ''}`.trim().split('\n').slice(-5).join(' | ')}`);
}

/**
 * Build (or find) the pinned server. Throws `NoGoToolchain` when there is no go command: the caller
 * says so in one line (the real-server test is then skipped).
 */
export function ensureTemporalServer(log: (line: string) => void = () => {}): { bin: RealServerBinaries; built: boolean } {
  const cached = temporalServerAt(TEMPORAL_SERVER_DIR);
  if (cached?.uiServer) return { bin: cached, built: false };
  const go = findGo();
  if (!go) throw new NoGoToolchain();
  const work = fs.mkdtempSync(path.join(TOOLS_DIR, '.temporal-server-build-'));
  try {
    goInstall(go, `go.temporal.io/server/cmd/server@v${TEMPORAL_SERVER_VERSION}`, path.join(work, 'server'), log);
    goInstall(go, `go.temporal.io/server/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`, path.join(work, 'sql'), log);
    goInstall(go, `github.com/temporalio/ui-server/v2/cmd/server@v${UI_SERVER_VERSION}`, path.join(work, 'ui'), log);
    fs.mkdirSync(TEMPORAL_SERVER_DIR, { recursive: true });
    fs.copyFileSync(path.join(work, 'server', 'server'), path.join(TEMPORAL_SERVER_DIR, 'temporal-server'));
    fs.copyFileSync(path.join(work, 'sql', 'sql'), path.join(TEMPORAL_SERVER_DIR, 'temporal-sql-tool'));
    fs.copyFileSync(path.join(work, 'ui', 'server'), path.join(TEMPORAL_SERVER_DIR, 'ui-server'));
    for (const f of ['temporal-server', 'temporal-sql-tool', 'ui-server']) fs.chmodSync(path.join(TEMPORAL_SERVER_DIR, f), 0o755);
    // The schema files ship in the server's module source (read-only in the module cache: copied, then made writable).
    const modCache = spawnSync(go, ['env', 'GOMODCACHE'], { encoding: 'utf8', env: { PATH: pathVariable() ?? '', HOME: os.homedir() } }).stdout.trim();
    const schema = path.join(modCache, `go.temporal.io/server@v${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql');
    fs.cpSync(schema, path.join(TEMPORAL_SERVER_DIR, 'schema', 'postgresql'), { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', path.join(TEMPORAL_SERVER_DIR, 'schema')]);
  } finally {
    spawnSync('chmod', ['-R', 'u+w', work]);
    fs.rmSync(work, { recursive: true, force: true });
  }
  return { bin: temporalServerAt(TEMPORAL_SERVER_DIR)!, built: true };
}

export class NoGoToolchain extends Error {
  constructor() {
    super('no Go toolchain (go on PATH or /usr/local/go): the real Temporal server is built with `go install`');
    this.name = 'NoGoToolchain';
  }
}
