// The dev and bench tools answer --help with every option and refuse a mistake in one line (lib/cli.ts).
import { describe, expect, it } from 'vitest';
import { usageOf } from '../../lib/cli';
import { runScript } from '../helpers/run-script';

describe('tool options', () => {
  it('lists every option with what it does and its default, in one column', () => {
    const text = usageOf('Does things.', 'npm run x --', {
      runs: { type: 'string', default: '15', description: 'how many runs' },
      quick: { type: 'boolean', default: false, description: 'small sizes' },
      only: { type: 'string' },
    });
    expect(text).toBe(
      ['Does things.', '', 'usage: npm run x -- [options]', '', 'options:', '  --runs <value>  how many runs (default 15)', '  --quick         small sizes', '  --only <value>', '  -h, --help      this text'].join('\n'),
    );
  });

  it('a tool without options shows no stray `--` in its usage', () => {
    expect(usageOf('Migrates.', 'npm run migrate --', {}).split('\n')[2]).toBe('usage: npm run migrate');
  });

  it('every bench and fault option says what it does', async () => {
    const scripts = ['faults/run.ts', 'bench/run-all.ts', 'bench/directory.ts', 'bench/temporal-throughput.ts', 'bench/webhook-isolation.ts', 'scripts/record-histories.ts'];
    const helps = await Promise.all(scripts.map((s) => runScript(s, ['--help'])));
    helps.forEach((h, i) => {
      expect(h.code, scripts[i]).toBe(0);
      const options = h.stdout.split('\n').filter((l) => /^ {2}(-\w, )?--/.test(l));
      expect(options.length, scripts[i]).toBeGreaterThan(1);
      // a flag, at least two spaces, then words
      for (const line of options) expect(line, `${scripts[i]}: ${line}`).toMatch(/^ {2}\S.*?\S {2,}\w/);
    });
    // faults --only names its scenarios; record:histories shows a project-relative default
    for (const id of ['F1', 'F10', 'F15', 'F20']) expect(helps[0]!.stdout).toMatch(new RegExp(`^ +${id} +\\w`, 'm'));
    expect(helps[5]!.stdout).toContain('(default test/fixtures/histories)');
  }, 60_000);

  it.each([
    ['api/main.ts', ['PORT', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'TRUST_PROXY']],
    ['worker/main.ts', ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'WEBHOOK_TASK_QUEUE']],
  ] as const)('%s --help lists its environment and connects to nothing; a stray argument is one line, exit 64', async (script, vars) => {
    // unreachable ports: a --help that connected would fail instead of printing help
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', TEMPORAL_ADDRESS: '127.0.0.1:1' };
    const [help, wrong] = await Promise.all([runScript(script, ['--help'], env), runScript(script, ['--bogus'], env)]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run (api|worker)$/m);
    for (const v of vars) expect(help.stdout).toMatch(new RegExp(`^ {2}${v}\\b`, 'm'));
    expect(help.stdout).not.toMatch(/SECRET.*\(default/);
    expect(wrong.code).toBe(64);
    expect(wrong.stderr.trim()).toMatch(/^unknown argument --bogus: npm run (api|worker) takes no options/);
  }, 60_000);

  it.each([
    ['api/main.ts', /^api: cannot reach PostgreSQL at 127\.0\.0\.1:1\/none \(ECONNREFUSED\)/m],
    ['worker/main.ts', /^worker: cannot reach Temporal at 127\.0\.0\.1:1 \(connection refused\)/m],
  ] as const)('%s started with nothing to reach names the host:port in one line, exit 69, no stack trace', async (script, line) => {
    const r = await runScript(script, [], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', TEMPORAL_ADDRESS: '127.0.0.1:1', LOG_LEVEL: 'warn' });
    expect(r.stderr).toMatch(line);
    expect(r.code).toBe(69);
    expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /);
  }, 60_000);

  const tools = [
    ['faults/run.ts', ['--short', '--only']],
    ['bench/temporal-throughput.ts', ['--intakes', '--inflight', '--rounds', '--image']],
    ['scripts/migrate.ts', []],
    ['scripts/cutover.ts', ['backfill', 'delta', 'report', 'stage', '--batch-size']],
    ['scripts/import.ts', ['--kind', '--format', '--batch-size']],
    ['scripts/legacy-fixture.ts', ['--rows', '--database-url', '--seed']],
  ] as const;
  it.each(tools)('%s answers --help (exit 0) and an unknown option in one line with exit 64, without a stack trace', async (script, options) => {
    const [help, wrong] = await Promise.all([runScript(script, ['--help']), runScript(script, ['--no-such-option'])]);
    expect(help.code).toBe(0);
    for (const o of [...options, '--help']) expect(help.stdout).toContain(o);
    expect(wrong.code).toBe(64);
    expect(wrong.stderr.split('\n')[0]).toBe("Unknown option '--no-such-option'");
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
