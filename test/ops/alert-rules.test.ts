// Issue 57 item 3: the alert rules on-call pages with (ops/prometheus/alerts.yml) pass promtool's
// check and its unit tests (ops/prometheus/alerts.test.yml: each alert fires on trouble and stays
// quiet beside it), the example Prometheus config is valid, and every metric a rule reads is one
// this code exports (or the Temporal SDK's, or Prometheus's own `up`): a renamed metric fails here,
// not silently in production.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { findPromtool, PROMTOOL_PATH } from '../../scripts/tools/promtool';

const DIR = path.join(PROJECT_ROOT, 'ops', 'prometheus');
const promtool = findPromtool();

function run(args: string[]): { code: number | null; out: string } {
  const r = spawnSync(promtool!, args, { cwd: DIR, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

if (!promtool && process.env.CI) throw new Error(`${PROMTOOL_PATH} is missing: \`npm run setup\` installs Debian's prometheus package`);

describe.skipIf(!promtool)('the alert rules', () => {
  it('pass promtool check rules and every unit test', () => {
    const check = run(['check', 'rules', 'alerts.yml']);
    expect(check.code, check.out).toBe(0);
    const tests = run(['test', 'rules', 'alerts.test.yml']);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toContain('SUCCESS');
  });

  it('every alert has a unit test that fires it, and a severity and a summary', () => {
    const rules = fs.readFileSync(path.join(DIR, 'alerts.yml'), 'utf8');
    const tests = fs.readFileSync(path.join(DIR, 'alerts.test.yml'), 'utf8');
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    expect(alerts.length).toBeGreaterThan(10);
    for (const a of alerts) {
      // A test of it that expects an alert (exp_alerts with an entry), not only silence.
      expect(tests, `${a}: no test fires it`).toMatch(new RegExp(`alertname: ${a}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
      const block = rules.slice(rules.indexOf(`- alert: ${a}`)).split(/\n\s+- alert: /)[0]!;
      expect(block, a).toMatch(/severity: (page|ticket)/);
      expect(block, a).toMatch(/summary: /);
    }
  });

  it('read only metrics this code exports (or the Temporal SDK, or Prometheus itself)', () => {
    const rules = fs.readFileSync(path.join(DIR, 'alerts.yml'), 'utf8');
    // The expressions without their grouping labels and label matchers: what is left names metrics and functions.
    const exprs = [...rules.matchAll(/expr: (.+)/g)].map((m) => m[1]!.replace(/\bby \([^)]*\)/g, ' ').replace(/\{[^}]*\}/g, ' '));
    const metrics = new Set(exprs.flatMap((e) => [...e.matchAll(/\b([a-z_]+)(?=\{|\[|\)| |$)/g)].map((m) => m[1]!)).filter((n) => n.includes('_') && !['by', 'and', 'or', 'sum', 'max', 'rate', 'increase', 'histogram_quantile'].includes(n)));
    const source = execFileSync('git', ['grep', '-h', "name: '", '--', 'api', 'worker', 'lib'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    const ours = new Set([...source.matchAll(/name: '([a-z_]+)'/g)].map((m) => m[1]!));
    const series = (m: string) => m.replace(/_(bucket|count|sum)$/, '');
    const unknown = [...metrics].filter((m) => !ours.has(series(m)) && !m.startsWith('temporal_workflow_task_') && m !== 'up');
    expect(metrics.size).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });

  it('the example Prometheus configuration is valid and loads the rules', () => {
    const r = run(['check', 'config', '--syntax-only', 'prometheus.yml']);
    expect(r.code, r.out).toBe(0);
    expect(fs.readFileSync(path.join(DIR, 'prometheus.yml'), 'utf8')).toMatch(/rule_files:\n\s+- alerts\.yml/);
  });
});
