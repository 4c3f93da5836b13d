// Issue 13's media figure: what decoding verification costs beside the bare sha256 it replaced.
//  M1  p50 of verifying a 12-megapixel JPEG (header, one pixel decode into both review previews, sha256)
//      / p50 of the bare sha256 of the same bytes, measured in the same run.
//  M2  peak RSS growth while 4 such images are verified at once (the same functions the verify
//      activity runs, in this process), against the process before.
// Run: npm run bench:media [-- --runs 15]
import { parseCli } from '../lib/cli';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printTable, writeResults } from './lib/results';
import { sha256File, verifyLikeM1, writePhoto12mp } from './lib/verification';
import { round, summarize } from './lib/stats';

const { values } = parseCli('M1-M2: verification of a 12-megapixel JPEG against its bare sha256; worker RSS with 4 at once.', 'npm run bench:media --', { options: { runs: { type: 'string', default: '15', description: 'verifications measured' } } });
const RUNS = Number(values.runs);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
try {
  const file = path.join(dir, 'photo.jpg');
  await writePhoto12mp(file);
  const bytes = fs.statSync(file).size;

  const sha256 = () => sha256File(file);
  const verify = () => verifyLikeM1(file);
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };

  await verify(); // warm-up: libvips and the file cache
  const bare: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(await time(sha256));
    ours.push(await time(verify));
  }

  // M2: four at once, RSS sampled every 5 ms.
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  await Promise.all(Array.from({ length: 4 }, () => verify()));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  const b = summarize(bare);
  const o = summarize(ours);
  const mb = (x: number) => round(x / 2 ** 20, 1);
  const rows = [
    { id: 'M1', figure: 'p50 verify a 12 MP JPEG (decode + sha256 + previews) / p50 bare sha256', ours_ms: o.p50, baseline_ms: b.p50, ratio: round(o.p50 / b.p50, 1) },
    { id: 'M2', figure: 'RSS while verifying 4 at once (MiB): before -> peak', ours_ms: `${mb(before)} -> ${mb(peak)}`, baseline_ms: '-', ratio: `+${mb(peak - before)} MiB` },
  ];
  printTable(`media verification: ${RUNS} runs, one ${round(bytes / 2 ** 20, 2)} MiB JPEG (4000 x 3000)`, rows);
  console.log(`\nwritten: ${writeResults('media-verification', { runs: RUNS, bytes, bare: b, ours: o, rss: { before, peak } })}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
