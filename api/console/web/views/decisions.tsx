// The latest decisions, newest first: who, what, when (with the timezone), the notes.
import { useEffect, useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api';
import { when, words } from '../format';
import { linkTo } from '../router';

type Row = Schemas['ConsoleDecisions']['data'][number];

export function Decisions() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => void must(api.GET('/console/api/decisions')).then((r) => setRows(r.data), (err: Error) => setError(err.message)), []);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!rows) return <p class="muted">Loading…</p>;
  if (rows.length === 0) return <p class="muted">No decisions yet.</p>;
  return (
    <table class="queue" data-testid="decisions">
      <thead>
        <tr>
          <th>When</th>
          <th>Who</th>
          <th>Decision</th>
          <th>File</th>
          <th>Now</th>
          <th>Notes</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.submissionId}:${r.at}`}>
            <td>{when(r.at)}</td>
            <td>{r.actorId}</td>
            <td>{r.decision}</td>
            <td>
              <a {...linkTo({ name: 'submission', id: r.submissionId })}>{r.fileName}</a>
            </td>
            <td>{words(r.intakeStatus)}</td>
            <td>{r.note ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
