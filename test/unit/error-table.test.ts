// docs/errors.md lists exactly the codes the API can answer, each with its status.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../api/http/errors';
import { PROJECT_ROOT } from '../../lib/config';

describe('the error table in docs/errors.md', () => {
  const doc = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'errors.md'), 'utf8');
  const documented = new Map<string, number>();
  for (const row of doc.split('\n').filter((l) => /^\| \d{3} \|/.test(l))) {
    const [, status, codes] = row.split('|').map((c) => c.trim());
    for (const [, code] of codes!.matchAll(/`([a-z_]+)`/g)) documented.set(code!, Number(status));
  }

  it('names every code of api/http/errors.ts with its status, and no other', () => {
    expect(Object.fromEntries(documented)).toEqual(ERROR_STATUS);
  });
});
