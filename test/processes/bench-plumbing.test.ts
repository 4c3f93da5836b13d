// The bench scripts' own logic: targets read as written, CPU profiles and histories summarised
// right, FTS5 queries built without FTS5 syntax from user text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, summarizeCpuProfile } from '../../bench/lib/cpu-profile';
import { toFtsQuery } from '../../bench/lib/fts5';
import { medianPhases, phasesAfterMessage } from '../../bench/lib/history-phases';
import { verdict } from '../../bench/lib/targets';
import { execFileSync } from 'node:child_process';
import { TANTIVY_DIR, tantivyInstalled } from '../../scripts/tools/tantivy';

describe('verdict', () => {
  it('reads >=, <=, = and the report form', () => {
    expect(verdict(0.8, '>= 0.8')).toBe('met');
    expect(verdict(0.79, '>= 0.8')).toBe('missed');
    expect(verdict(3.0, '<= 3.0')).toBe('met');
    expect(verdict(3.01, '<= 3.0')).toBe('missed');
    expect(verdict(1, '= 1.0')).toBe('met');
    expect(verdict(1.41, '= 1.0')).toBe('missed');
    expect(verdict(1.3, 'report; <= 2')).toBe('met');
    expect(verdict(undefined, '<= 2')).toBe('not measured');
    expect(verdict(NaN, '<= 2')).toBe('not measured');
    expect(() => verdict(1, 'fast')).toThrow(/unreadable/);
    // a figure with no target yet (R10) is reported, never met or missed
    expect(verdict(4.2, 'none yet')).toBe('reported');
  });
});

describe('the R10 baseline (tantivy)', () => {
  it.runIf(tantivyInstalled())('counts exactly, ANDs the words and ignores query syntax in the terms', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'r10-'));
    try {
      const docs = [
        { type: 'studio', id: 's1', name: 'Koi House', place: 'Austin', body: 'japanese koi and dragon' },
        { type: 'studio', id: 's2', name: 'Ink Room', place: 'Austin', body: 'a koi now and then' },
        { type: 'artist', id: 'a1', name: 'Jo', place: 'fine line', body: 'dragon work' },
        { type: 'design', id: 'd1', name: 'Wolf', place: '', body: 'wolf koi' },
      ];
      fs.writeFileSync(path.join(dir, 'c.ndjson'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
      fs.mkdirSync(path.join(dir, 'idx'));
      const out = execFileSync('python3', ['bench/lib/tantivy_r10.py', path.join(dir, 'c.ndjson'), path.join(dir, 'idx'), JSON.stringify(['koi', 'koi dragon', 'fine line', 'koi AND -dragon:(', 'OR wolf']), '0', '5'], {
        env: { ...process.env, PYTHONPATH: TANTIVY_DIR },
        encoding: 'utf8',
      });
      const r = JSON.parse(out.trim());
      expect(r).toMatchObject({ docs: 4, n: 5 });
      // "AND" and "OR" are words that must be present (s1 holds "and"; nothing holds "or"), not operators
      expect(r.counts).toEqual({ koi: 3, 'koi dragon': 1, 'fine line': 1, 'koi AND -dragon:(': 1, 'OR wolf': 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('summarizeCpuProfile', () => {
  it('adds self time per node, by package and by function, idle left out', () => {
    const root = { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3, 4] };
    const express = { id: 2, callFrame: { functionName: 'handle', url: 'file:///app/node_modules/express/lib/router.js', lineNumber: 9 } };
    const pino = { id: 3, callFrame: { functionName: 'write', url: 'file:///app/node_modules/@scope/pino/x.js', lineNumber: 0 } };
    const idle = { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } };
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prof-')), 'p.cpuprofile');
    // samples: express 3 x 1 ms, pino 1 x 2 ms, idle 1 x 5 ms
    fs.writeFileSync(file, JSON.stringify({ nodes: [root, express, pino, idle], samples: [2, 2, 2, 3, 4], timeDeltas: [1000, 1000, 1000, 2000, 5000] }));
    const s = summarizeCpuProfile(file);
    expect(s.totalMs).toBe(10);
    expect(s.idleMs).toBe(5);
    expect(s.areas).toEqual([
      { where: 'express', ms: 3, pct: 60 },
      { where: '@scope/pino', ms: 2, pct: 40 },
    ]);
    expect(s.functions[0]).toEqual({ where: 'handle express:10', ms: 3, pct: 60 });
  });

  it('names our code and node internals by their place', () => {
    expect(areaOf('file:///work/main/api/http/problem.ts', 'f')).toBe('ours: api/http/problem.ts');
    expect(areaOf('node:internal/http/server', 'f')).toBe('node:http/server');
    expect(areaOf('', '(garbage collector)')).toBe('(garbage collector)');
  });
});

describe('history phases', () => {
  const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });
  const history = (activityMs: number) => [
    { eventType: 1, eventTime: at(0) },
    { eventType: 26, eventTime: at(1000), workflowExecutionSignaledEventAttributes: { signalName: 'go' } },
    { eventType: 5, eventTime: at(1000) },
    { eventType: 6, eventTime: at(1004) },
    { eventType: 7, eventTime: at(1010) },
    { eventType: 10, eventTime: at(1010) },
    { eventType: 11, eventTime: at(1012) },
    { eventType: 12, eventTime: at(1012 + activityMs) },
    { eventType: 5, eventTime: at(1012 + activityMs) },
    { eventType: 6, eventTime: at(1015 + activityMs) },
    { eventType: 7, eventTime: at(1020 + activityMs) },
    { eventType: 26, eventTime: at(5000), workflowExecutionSignaledEventAttributes: { signalName: 'later' } },
  ];

  it('times each step from the signal to the task after the first activity', () => {
    const p = phasesAfterMessage(history(50) as never, 'go');
    expect(p.map((x) => x.ms)).toEqual([0, 4, 6, 0, 2, 50, 0, 3, 5]);
    expect(p[5]).toEqual({ phase: 'ActivityTaskStarted -> ActivityTaskCompleted', ms: 50 });
    expect(phasesAfterMessage(history(50) as never, 'missing')).toEqual([]);
  });

  it('starts an Update at its acceptance', () => {
    const updated = history(50).map((e) =>
      e.workflowExecutionSignaledEventAttributes?.signalName === 'go'
        ? { eventType: 41, eventTime: e.eventTime, workflowExecutionUpdateAcceptedEventAttributes: { acceptedRequest: { input: { name: 'go' } } } }
        : e,
    );
    const p = phasesAfterMessage(updated as never, 'go');
    expect(p.map((x) => x.ms)).toEqual([0, 4, 6, 0, 2, 50, 0, 3, 5]);
    expect(p[0]!.phase).toBe('WorkflowExecutionUpdateAccepted -> WorkflowTaskScheduled');
    expect(phasesAfterMessage(updated as never, 'missing')).toEqual([]);
  });

  it('takes the median per step across histories', () => {
    const m = medianPhases([10, 50, 90].map((a) => phasesAfterMessage(history(a) as never, 'go')));
    expect(m[5]).toEqual({ step: 6, phase: 'ActivityTaskStarted -> ActivityTaskCompleted', p50_ms: 50 });
  });
});

describe('toFtsQuery', () => {
  it('quotes every word so user text cannot use FTS5 operators', () => {
    expect(toFtsQuery('iron  lotus')).toBe('"iron" "lotus"');
    expect(toFtsQuery('a" OR b*')).toBe('"a""" "OR" "b*"');
  });
});
