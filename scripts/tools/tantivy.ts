// Where `npm run setup` puts tantivy (PyPI, pinned): `pip install --target` into .tools/tantivy, run
// with that folder on PYTHONPATH. Only the R10 search benchmark uses it (bench/lib/tantivy.ts).
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_DIR } from '../../temporal/cli-path';

export const TANTIVY_PACKAGE = 'tantivy';
export const TANTIVY_VERSION = '0.27.0';
export const TANTIVY_DIR = path.join(TOOLS_DIR, 'tantivy');

export function tantivyInstalled(): boolean {
  return fs.existsSync(path.join(TANTIVY_DIR, `${TANTIVY_PACKAGE}-${TANTIVY_VERSION}.dist-info`));
}
