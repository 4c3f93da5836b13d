// The command blocks of the guides: a fenced ```bash block right after the comment
// `<!-- guide-test: run -->` is one a newcomer runs as written (test/e2e/guides-run.test.ts runs
// it); every other fenced block is prose (an example answer, a placeholder, a long-running process).
import fs from 'node:fs';
import path from 'node:path';

/** The README walk-through and every guide whose commands a newcomer pastes. */
export const GUIDES = ['README.md', 'docs/partners.md', 'docs/operators.md', 'docs/read-clients.md', 'docs/on-call.md', 'docs/cutover.md', 'docs/agents.md'] as const;

export const RUN_MARK = '<!-- guide-test: run -->';

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  runnable: boolean;
  text: string;
}

/** Every fenced block of a markdown file, with whether the run mark precedes it (blank lines between allowed). */
export function blocksOf(root: string, file: string): Block[] {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !/^```\s*$/.test(lines[j]!)) j++;
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    blocks.push({ file, line: i + 1, lang: open[1] ?? '', runnable: k >= 0 && lines[k]!.trim() === RUN_MARK, text: lines.slice(i + 1, j).join('\n') });
    i = j;
  }
  return blocks;
}

/**
 * The embedded stack's default addresses written into a shell command: a guide's commands must read
 * the running stack's addresses (.data/stack.json) instead, or name the variable to set.
 */
export const DEFAULT_ADDRESS = /(?:127\.0\.0\.1|localhost|0\.0\.0\.0):(?:3000|7233|8233|54329|9464)\b/;

/** Lines of a shell block that would reach a default port: a written address, or a Temporal CLI call without --address (it defaults to 127.0.0.1:7233). */
export function defaultPortLines(b: Block): string[] {
  return b.text
    .split('\n')
    .filter((line) => {
      const l = line.replace(/(^|\s)#.*$/, ''); // a comment (an example answer) is not a command
      return DEFAULT_ADDRESS.test(l) || (/(^|[\s/])temporal (workflow|operator|batch|schedule|task-queue)\b/.test(l) && !/--address\b/.test(l));
    });
}
