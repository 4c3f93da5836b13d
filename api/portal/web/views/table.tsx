// A table of the portal's rows (keys, deliveries): its column headings, the last one blank for the actions.
import type { ComponentChildren } from 'preact';

export const Table = ({ columns, children }: { columns: string[]; children: ComponentChildren }) => (
  <table class="keys">
    <thead>
      <tr>
        {columns.map((c) => (c ? <th key={c}>{c}</th> : <th key="actions" />))}
      </tr>
    </thead>
    <tbody>{children}</tbody>
  </table>
);
