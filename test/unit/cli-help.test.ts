// The dev and bench tools answer --help with every option and refuse a mistake in one line (lib/cli.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageOf } from '../../lib/cli';
import { PROJECT_ROOT } from '../../lib/config';

function run(script: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, script), ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), 30_000);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('tool options', () => {
  it('lists every option with its default', () => {
    const text = usageOf('Does things.', 'npm run x --', { runs: { type: 'string', default: '15' }, quick: { type: 'boolean', default: false }, only: { type: 'string' } });
    expect(text).toBe(['Does things.', '', 'usage: npm run x -- [options]', '', 'options:', '  --runs <value> (default 15)', '  --quick', '  --only <value>', '  -h, --help'].join('\n'));
  });

  const tools = [
    ['faults/run.ts', ['--short', '--only']],
    ['bench/temporal-throughput.ts', ['--intakes', '--inflight', '--rounds', '--image']],
    ['scripts/migrate.ts', []],
  ] as const;
  it.each(tools)('%s answers --help (exit 0) and an unknown option in one line with exit 64, without a stack trace', async (script, options) => {
    const [help, wrong] = await Promise.all([run(script, ['--help']), run(script, ['--no-such-option'])]);
    expect(help.code).toBe(0);
    for (const o of [...options, '--help']) expect(help.out).toContain(o);
    expect(wrong.code).toBe(64);
    expect(wrong.err.split('\n')[0]).toBe("Unknown option '--no-such-option'");
    expect(wrong.err).not.toMatch(/\n\s+at /);
  }, 60_000);
});
