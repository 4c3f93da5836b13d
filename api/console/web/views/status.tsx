// Where things stand: how many wait, the oldest wait, decisions today (since the operator's local
// midnight). The queue figures are the metrics' own query (lib/console/review.ts queueFigures).
import { useEffect, useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api';
import { age, when, words } from '../format';

type Figures = Schemas['ConsoleStatus']['data'];

export function Status() {
  const [f, setF] = useState<Figures | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const load = () => must(api.GET('/console/api/status', { params: { query: { since: midnight.toISOString() } } })).then((r) => setF(r.data), (err: Error) => setError(err.message));
    void load();
    const timer = setInterval(() => void load(), 15_000);
    return () => clearInterval(timer);
  }, []);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!f) return <p class="muted">Loading…</p>;
  // Every kind of decision the API counts (its console label: lib/intake/decisions.ts), in its order.
  const { since: _since, ...counts } = f.decisions;
  const decided = Object.entries(counts) as [string, number][];
  return (
    <section data-testid="status-page">
      <div class="figures">
        <div class="figure">
          <span class="n" data-testid="waiting">
            {f.waiting}
          </span>
          <span>waiting for review</span>
        </div>
        <div class="figure">
          <span class="n" data-testid="oldest">
            {f.waiting ? age(f.oldestWaitSeconds) : 'none'}
          </span>
          <span>the oldest wait</span>
        </div>
        <div class="figure">
          <span class="n" data-testid="decided-today">
            {decided.reduce((sum, [, n]) => sum + n, 0)}
          </span>
          <span>decisions today ({decided.map(([label, n]) => `${n} ${label}`).join(', ')})</span>
        </div>
      </div>
      <p class="muted">Today: since {when(f.decisions.since)}. Refreshed every 15 s.</p>
      <h3>Submissions by status</h3>
      <table class="queue narrow">
        <tbody>
          {Object.entries(f.byStatus)
            .sort((a, b) => b[1] - a[1])
            .map(([status, n]) => (
              <tr key={status}>
                <td>{words(status)}</td>
                <td>{n}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}
