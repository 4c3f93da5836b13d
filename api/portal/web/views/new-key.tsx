// A key just created or rotated: shown this once, with "Try it in the docs".
import { useState } from 'preact/hooks';
import type { NewKey as Made } from '../api';
import { when } from '../format';
import { tryInDocs } from '../handoffs';
import { Alert } from './confirm';
import { ShownOnce } from './shown-once';

export function NewKey({ made, onDone }: { made: Made; onDone: () => void }) {
  const [error, setError] = useState('');
  return (
    <ShownOnce
      label="New key"
      title={`${made.previousKeyId ? 'Key rotated' : 'Key created'}: ${made.name}`}
      intro="This is the only time the key is shown. Store it in your secret manager now."
      value={made.key}
      valueProps={{ id: 'new-key-value' }}
      onDone={onDone}
      more={
        <button type="button" onClick={() => tryInDocs(made.docsHandoff, setError)}>
          Try it in the docs
        </button>
      }
      after={
        <>
          {made.previousExpiresAt && <p>The old key works until {when(made.previousExpiresAt)}.</p>}
          <Alert text={error} />
        </>
      }
    />
  );
}
