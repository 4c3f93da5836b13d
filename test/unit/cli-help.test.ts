// The dev and bench tools answer --help with every option and refuse a mistake in one line (lib/cli.ts).
import { describe, expect, it } from 'vitest';
import { usageOf } from '../../lib/cli';
import { runScript } from '../helpers/run-script';

describe('tool options', () => {
  it('lists every option with its default', () => {
    const text = usageOf('Does things.', 'npm run x --', { runs: { type: 'string', default: '15' }, quick: { type: 'boolean', default: false }, only: { type: 'string' } });
    expect(text).toBe(['Does things.', '', 'usage: npm run x -- [options]', '', 'options:', '  --runs <value> (default 15)', '  --quick', '  --only <value>', '  -h, --help'].join('\n'));
  });

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
