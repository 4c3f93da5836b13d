// A confirmation: what will change, then the action or Cancel.
import { useEffect } from 'preact/hooks';
export function Confirm({ title, lines, action, danger, onConfirm, onCancel }: { title: string; lines: string[]; action: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onCancel();
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="overlay">
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="confirm-title" data-testid="confirm">
        <h3 id="confirm-title">{title}</h3>
        <ul>
          {lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
        <p>
          <button class={danger ? 'danger' : 'primary'} name="confirm" onClick={onConfirm}>
            {action}
          </button>{' '}
          <button name="cancel" onClick={onCancel}>
            Cancel
          </button>
        </p>
      </div>
    </div>
  );
}
