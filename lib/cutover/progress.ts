// Progress of a cutover run on stderr: a cli-progress bar per table on a terminal, a line per
// finished table when piped.
import cliProgress from 'cli-progress';

export function runProgress(stream: NodeJS.WriteStream = process.stderr) {
  const multi = stream.isTTY
    ? new cliProgress.MultiBar({ stream, format: '{label} [{bar}] {percentage}% {value}/{total} rows, {duration_formatted}', hideCursor: true, clearOnComplete: false, fps: 10 }, cliProgress.Presets.shades_classic)
    : undefined;
  const bars = new Map<string, cliProgress.SingleBar>();
  const finished = new Set<string>();
  const started = Date.now();
  return {
    onProgress(table: string, done: number, total: number) {
      const label = table.padEnd(16);
      if (multi) {
        let bar = bars.get(table);
        if (!bar) bars.set(table, (bar = multi.create(total, 0, { label })));
        bar.setTotal(Math.max(total, done));
        bar.update(done, { label });
      } else if (done >= total && !finished.has(table)) {
        finished.add(table);
        stream.write(`${label} ${done.toLocaleString('en-US')} rows (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
      }
    },
    /** A line between the bars (a TTY) or on standard output. */
    log(line: string) {
      if (multi) multi.log(`${line}\n`);
      else console.log(line);
    },
    stop() {
      multi?.stop();
    },
  };
}
