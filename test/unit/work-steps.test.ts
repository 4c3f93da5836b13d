// Replay safety declared, not remembered (lib/intake/lifecycle.ts WORK): a work step that every
// recorded shape has may say `initial`; any other must name the patch it arrived with, or a run
// waiting in review would replay through the new table and schedule the new step's activity. And
// the reconciler resumes every open state the lifecycle names (worker/reconciler.ts RESUME_FROM).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPEN, WORK, type Work } from '../../lib/intake/lifecycle';
import { RESUME_FROM } from '../../worker/reconciler';
import { COMPAT } from '../../workflows/compat';

const DIR = path.join(__dirname, '../fixtures/histories');
const manifest = JSON.parse(readFileSync(path.join(DIR, 'index.json'), 'utf8')) as { fixtures: { shape: string; scenario: string; file: string; workflowType: string }[] };
/** Per recorded shape, the text of its promoted intake's history (activity types and local-activity markers name the activity). */
const promoted = manifest.fixtures
  .filter((f) => f.workflowType === 'portfolioIntake' && f.scenario === 'promoted')
  .map((f) => ({ shape: f.shape, text: readFileSync(path.join(DIR, f.file), 'utf8') }));
/** A local activity's marker holds its type inside a base64 payload: decode every payload's data too. */
const withPayloads = (text: string) => text + [...text.matchAll(/"data":\s*"([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8')).join('\n');

describe('work steps declare how they replay', () => {
  it('there is a promoted history of each shape to judge by', () => {
    expect(promoted.length).toBeGreaterThanOrEqual(2);
  });

  /** What is wrong with a step's declaration, judged against the recorded histories (none: it holds). */
  const problemsOf = (work: Work): string[] =>
    work.arrivedWith === 'initial'
      ? promoted.filter((h) => !withPayloads(h.text).includes(work.activity)).map((h) => `${work.activity} says initial, but the ${h.shape} shape never ran it`)
      : COMPAT.some((c) => c.id === work.arrivedWith)
        ? []
        : [`${work.arrivedWith} is not a patch of the compatibility ledger`];

  it.each(Object.entries(WORK) as [string, Work][])('%s: `initial` only if every recorded shape ran its activity; otherwise a patch of the compatibility ledger', (_step, work) => {
    expect(problemsOf(work)).toEqual([]);
  });

  it('a new step that claims `initial`, or names a patch the ledger lacks, is caught (the check can fail)', () => {
    expect(problemsOf({ activity: 'scanForMalware', doing: 'scanning', arrivedWith: 'initial' })).toHaveLength(promoted.length);
    expect(problemsOf({ activity: 'scanForMalware', doing: 'scanning', arrivedWith: 'intake-malware-scan' })).toHaveLength(1);
  });
});

describe('the reconciler resumes every open state', () => {
  it('RESUME_FROM names exactly the open states the lifecycle has', () => {
    expect(Object.keys(RESUME_FROM).sort()).toEqual([...OPEN].sort());
  });
});
