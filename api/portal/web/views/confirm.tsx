// Confirmations said in words: a rotation (how long the old one keeps working) and a destructive action.
import type { Overlap } from '../choices';

/** Rotate a key or a secret: how long the old one keeps working, then confirm. */
export function RotateConfirm<S extends number>(p: { id: string; label: string; options: Overlap<S>[]; value: S; onChange: (seconds: S) => void; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div class="confirm">
      <label for={p.id}>{p.label}</label>
      <select id={p.id} value={p.value} onChange={(e) => p.onChange(Number((e.target as HTMLSelectElement).value) as S)}>
        {p.options.map((o) => (
          <option value={o.seconds} key={o.seconds}>
            {o.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={p.onConfirm}>
        Rotate now
      </button>
      <button type="button" class="secondary" onClick={p.onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A destructive action, said in words and confirmed. */
export function DangerConfirm(p: { text: string; action: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div class="confirm">
      <span>{p.text}</span>
      <button type="button" class="danger" onClick={p.onConfirm}>
        {p.action}
      </button>
      <button type="button" class="secondary" onClick={p.onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A call's failure, announced. */
export const Alert = ({ text }: { text: string }) =>
  text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null;
