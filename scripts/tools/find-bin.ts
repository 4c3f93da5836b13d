// Where a Debian tool the launcher runs is: on PATH, else where its package puts it (sbin is not on every PATH).
import fs from 'node:fs';
import path from 'node:path';
import { pathVariable } from '../../lib/config';

export function findBin(name: string, packagePath: string): string | undefined {
  for (const d of (pathVariable() ?? '').split(path.delimiter)) {
    if (d && fs.existsSync(path.join(d, name))) return path.join(d, name);
  }
  return fs.existsSync(packagePath) ? packagePath : undefined;
}
