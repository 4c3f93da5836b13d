// The operator CLIs as a person meets them: `--help` lists every option the source declares, and a
// mistake (unknown option, unknown command, a value out of range) is one clear line on stderr and
// the usage, exit 64, never a stack trace. Each case spawns the script with tsx (about a second),
// so the cases run a few at a time. None of them needs a database or installs anything.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { MAX_TOKEN_AGE_SECONDS } from '../../lib/identity/jwt';
import { TEMPORAL_TOKEN_MAX_SECONDS } from '../../temporal/tokens';
import { runScript as runHelper, type ScriptRun } from '../helpers/run-script';

type Run = ScriptRun;
// An unreachable database: a case that wrongly gets as far as connecting fails fast.
const runScript = (script: string, args: string[]) => runHelper(script, args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });

/** Option names declared in a block of source: `name: { type: 'string' ...` or `'a-b': { type: 'boolean' ...`. */
function declaredOptions(source: string): string[] {
  return [...source.matchAll(/^\s+'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/gm)].map((m) => m[1]!);
}

/** The `COMMANDS` entries of scripts/iam.ts, each with the options declared in its block. */
function iamCommands(source: string): Map<string, string[]> {
  const body = source.slice(source.indexOf('const COMMANDS = {'));
  const heads = [...body.matchAll(/^ {2}'?([a-z][a-z-]*)'?: \{$/gm)];
  const end = body.indexOf('\n} as const');
  return new Map(heads.map((h, i) => [h[1]!, declaredOptions(body.slice(h.index, heads[i + 1]?.index ?? end))]));
}

const read = (file: string) => fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const IAM = iamCommands(read('scripts/iam.ts'));

interface Case {
  name: string;
  script: string;
  args: string[];
  code: 0 | 64;
  /** Help: each must appear as `--<option>` on stdout. Mistake: the first stderr line names this. */
  options?: string[];
  problem?: RegExp;
}

const helpCase = (name: string, script: string, args: string[], options: string[]): Case => ({ name, script, args, code: 0, options });
const mistake = (name: string, script: string, args: string[], problem: RegExp): Case => ({ name, script, args, code: 64, problem });

const CASES: Case[] = [
  // iam adds --help to every command's options when it parses them.
  helpCase('iam --help', 'scripts/iam.ts', ['--help'], [...new Set([...IAM.values()].flat()), 'help']),
  ...[...IAM].map(([cmd, options]) => helpCase(`iam ${cmd} --help`, 'scripts/iam.ts', [cmd, '--help'], [...options, 'help'])),
  helpCase('iam token -h', 'scripts/iam.ts', ['token', '-h'], [...(IAM.get('token') ?? []), 'help']),
  mistake('iam --bogus', 'scripts/iam.ts', ['--bogus'], /--bogus/),
  mistake('iam (no command)', 'scripts/iam.ts', [], /missing command/),
  mistake('iam frobnicate', 'scripts/iam.ts', ['frobnicate'], /unknown command 'frobnicate'/),
  ...[...IAM.keys()].map((cmd) => mistake(`iam ${cmd} --bogus`, 'scripts/iam.ts', [cmd, '--bogus'], /unknown option '--bogus'/i)),
  mistake('iam create-key without --org', 'scripts/iam.ts', ['create-key'], /missing --org/),
  mistake('iam create-key with an unknown permission', 'scripts/iam.ts', ['create-key', '--org', 'x', '--permissions', 'nope:read'], /unknown permission: nope:read/),
  mistake('iam map --kind other', 'scripts/iam.ts', ['map', '--actor', 'a-1', '--kind', 'other', '--subject', 's', '--org', 'o', '--role', 'r'], /--kind must be api_key or bearer/),
  mistake('iam token --ttl above the maximum', 'scripts/iam.ts', ['token', '--subject', 'jane', '--ttl', String(MAX_TOKEN_AGE_SECONDS + 1)], new RegExp(`--ttl must be a whole number of seconds from 1 to ${MAX_TOKEN_AGE_SECONDS}$`)),
  mistake('iam temporal-token --ttl above 12 hours', 'scripts/iam.ts', ['temporal-token', '--ttl', String(TEMPORAL_TOKEN_MAX_SECONDS + 1)], new RegExp(`--ttl must be a whole number of seconds from 1 to ${TEMPORAL_TOKEN_MAX_SECONDS}$`)),
  mistake('iam revoke-key without a key id', 'scripts/iam.ts', ['revoke-key'], /exactly one key id/),
  helpCase('seed --help', 'scripts/seed.ts', ['--help'], declaredOptions(read('scripts/seed.ts'))),
  mistake('seed --bogus', 'scripts/seed.ts', ['--bogus'], /unknown option '--bogus'/i),
  mistake('seed --studios 0', 'scripts/seed.ts', ['--studios', '0'], /--studios must be a whole number/),
  helpCase('project --help', 'scripts/project-draft.ts', ['--help'], declaredOptions(read('scripts/project-draft.ts'))),
  helpCase('search --help', 'scripts/search.ts', ['--help'], declaredOptions(read('scripts/search.ts'))),
  mistake('search (no command)', 'scripts/search.ts', [], /give one command: reindex, compare, index, drain or status/),
  mistake('search --batch 0', 'scripts/search.ts', ['drain', '--batch', '0', '--url', 'http://127.0.0.1:1'], /--batch must be a whole number from 1 to 10000/),
  mistake('project --bogus', 'scripts/project-draft.ts', ['--bogus'], /--bogus/),
  // The classifier answers --help before it reads its configuration (CLASSIFIER_API_KEY).
  helpCase('classifier --help', 'classifier/main.ts', ['--help'], ['help']),
  mistake('classifier --bogus', 'classifier/main.ts', ['--bogus'], /--bogus/),
  // --help and mistakes answer before anything is installed.
  helpCase('setup --help', 'scripts/setup-tools.ts', ['--help'], declaredOptions(read('scripts/setup-tools.ts'))),
  mistake('setup --bogus', 'scripts/setup-tools.ts', ['--bogus'], /unknown option '--bogus'/i),
  mistake('setup --only nothing', 'scripts/setup-tools.ts', ['--only', 'nothing'], /--only takes temporal, gcs, schemathesis, chromium, haproxy, pgbouncer, promtool, tantivy, temporal-server, opensearch \(not: nothing\)/),
];

describe('operator CLIs: --help and usage mistakes', () => {
  const results = new Map<string, Run>();
  beforeAll(async () => {
    const queue = [...CASES];
    const lane = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) results.set(c.name, await runScript(c.script, c.args));
    };
    await Promise.all(Array.from({ length: 4 }, lane));
  }, 120_000);

  it('finds the commands and options in the source (the checks below are not empty)', () => {
    expect([...IAM.keys()]).toEqual(['create-key', 'revoke-key', 'map', 'token', 'temporal-token', 'temporal-jwks', 'console-link', 'portal-link', 'list', 'rotate-webhook-key']);
    expect(IAM.get('create-key')).toEqual(expect.arrayContaining(['org', 'permissions', 'artist-scope', 'studio-scope', 'label']));
    expect(IAM.get('token')).toEqual(['subject', 'ttl']);
    expect(IAM.get('temporal-token')).toEqual(['ttl', 'subject', 'web-ui']);
    expect(declaredOptions(read('scripts/seed.ts'))).toEqual(['studios', 'seed', 'reset', 'if-empty', 'help']);
    expect(declaredOptions(read('scripts/setup-tools.ts'))).toEqual(['only', 'help']);
  });

  it.each(CASES.filter((c) => c.code === 0).map((c) => [c.name, c] as const))('%s: exit 0, every declared option on stdout', (name, c) => {
    const r = results.get(name)!;
    expect(r.stderr).not.toMatch(/^ {4}at /m);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/usage/);
    expect(c.options!.length).toBeGreaterThan(0);
    for (const o of c.options!) expect(r.stdout, `--${o} in the help of ${name}`).toContain(`--${o}`);
  });

  it.each(CASES.filter((c) => c.code === 64).map((c) => [c.name, c] as const))('%s: exit 64, one line naming the mistake, then the usage', (name, c) => {
    const r = results.get(name)!;
    expect(r.stderr).not.toMatch(/^ {4}at /m);
    expect(r.code, r.stderr).toBe(64);
    expect(r.stdout).toBe('');
    const [first, blank, ...usage] = r.stderr.split('\n');
    expect(first).toMatch(c.problem!);
    expect(blank).toBe('');
    expect(usage.join('\n')).toMatch(/^usage/);
  });

  it("iam create-key --help and map --help say a stage key without --artist-scope stages only for its organization's artists", () => {
    for (const name of ['iam create-key --help', 'iam map --help']) {
      const help = results.get(name)!.stdout.replace(/\s+/g, ' ');
      expect(help).not.toContain('no artist limit');
      expect(help).toContain('a stage actor stages only for artists its organization is tied to');
      expect(help).toContain('403 artist_out_of_scope');
    }
  });

  it('iam token --help states the default lifetime and, as its maximum, the longest the API accepts', () => {
    const help = results.get('iam token --help')!.stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`default 3600 (1 hour), maximum ${MAX_TOKEN_AGE_SECONDS} (${MAX_TOKEN_AGE_SECONDS / 3600} hours, the longest the API accepts)`);
  });
});
