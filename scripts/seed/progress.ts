// Progress of a directory seed on stderr (`npm run seed`, the bench's seeding): one cli-progress
// bar per table, redrawn in place on a terminal; one line per finished step when piped.
import cliProgress from 'cli-progress';
import type { SeedOptions, SeedStep } from './directory';

const LABELS: Record<SeedStep, string> = {
  studios: 'studios',
  artists: 'artists',
  portfolio_assets: 'portfolio assets',
  designs: 'designs',
  search_documents: 'search documents',
};

export interface SeedProgress {
  onProgress: NonNullable<SeedOptions['onProgress']>;
  /** Stop redrawing (call once the seed ended, successfully or not). */
  stop(): void;
}

export function seedProgress(stream: NodeJS.WriteStream = process.stderr): SeedProgress {
  const tty = Boolean(stream.isTTY);
  const multi = tty
    ? new cliProgress.MultiBar(
        {
          stream,
          format: '{label} [{bar}] {percentage}% {value}/{total} rows, {duration_formatted}',
          formatValue: (v, _o, type) => (type === 'value' || type === 'total' ? v.toLocaleString('en-US') : String(v)),
          hideCursor: true,
          clearOnComplete: false,
          fps: 10,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const bars = new Map<SeedStep, cliProgress.SingleBar>();
  const finished = new Set<SeedStep>();
  const started = Date.now();
  return {
    onProgress({ table, done, total }) {
      const label = LABELS[table].padEnd(16);
      if (multi) {
        let bar = bars.get(table);
        if (!bar) bars.set(table, (bar = multi.create(total, 0, { label })));
        bar.setTotal(total);
        bar.update(done, { label });
      } else if (done >= total && !finished.has(table)) {
        finished.add(table);
        stream.write(`${label} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
      }
    },
    stop() {
      multi?.stop();
    },
  };
}
