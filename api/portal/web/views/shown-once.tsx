// A secret shown this once (a new key, a signing secret): Copy, and "I have stored it" to close.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function ShownOnce(p: { label: string; title: ComponentChildren; intro: string; value: string; valueProps: { id?: string; class?: string }; onDone: () => void; more?: ComponentChildren; after?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  return (
    <section class="card new-key" aria-label={p.label}>
      <h2>{p.title}</h2>
      <p>{p.intro}</p>
      <code {...p.valueProps}>{p.value}</code>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(p.value).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        {p.more}
        <button type="button" class="secondary" onClick={p.onDone}>
          I have stored it
        </button>
      </div>
      {p.after}
    </section>
  );
}
