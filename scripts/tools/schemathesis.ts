// Where `npm run setup` puts schemathesis (PyPI, pinned) and how to run it: `pip install --target`
// into .tools/schemathesis, run with that folder on PYTHONPATH. Used by setup and by the tests.
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_DIR } from '../../temporal/cli-path';

export const SCHEMATHESIS_PACKAGE = 'schemathesis';
export const SCHEMATHESIS_VERSION = '4.32.5';
export const SCHEMATHESIS_DIR = path.join(TOOLS_DIR, 'schemathesis');

export function schemathesisInstalled(): boolean {
  return fs.existsSync(path.join(SCHEMATHESIS_DIR, `${SCHEMATHESIS_PACKAGE}-${SCHEMATHESIS_VERSION}.dist-info`)) && fs.existsSync(schemathesisEntry());
}

/** The `st` console script; run it as `python3 <entry> run ...` with PYTHONPATH=SCHEMATHESIS_DIR. */
export function schemathesisEntry(): string {
  return path.join(SCHEMATHESIS_DIR, 'bin', 'st');
}
