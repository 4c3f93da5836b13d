// The organization's keys: the key just made, the create form, and the table of keys.
import { useEffect, useState } from 'preact/hooks';
import { api, attempt, must, type Key, type NewKey as Made, type Permission } from '../api';
import { CreateKey } from './create-key';
import { KeyRow } from './key-row';
import { NewKey } from './new-key';
import { Table } from './table';

const COLUMNS = ['Name', 'Prefix', 'Permissions', 'Scopes', 'Created', 'Last used', 'Expires', 'Status', ''];

export function Keys() {
  const [keys, setKeys] = useState<Key[] | undefined>();
  const [selectable, setSelectable] = useState<Permission[]>([]);
  const [made, setMade] = useState<Made | undefined>();
  const [error, setError] = useState('');
  const load = () =>
    attempt(setError, async () => {
      const list = await must(api.GET('/portal/api/keys'));
      setKeys(list.data);
      setSelectable(list.selectablePermissions);
    });
  useEffect(() => void load(), []);
  const onMade = (k: Made) => {
    setMade(k);
    void load();
  };
  return (
    <>
      {made && <NewKey made={made} onDone={() => setMade(undefined)} />}
      <CreateKey selectable={selectable} onMade={onMade} />
      <section class="card">
        <h2>Your organization's keys</h2>
        {error && <p class="error">{error}</p>}
        {keys && keys.length === 0 && <p>No keys yet.</p>}
        {keys && keys.length > 0 && (
          <Table columns={COLUMNS}>
            {keys.map((k) => (
              <KeyRow k={k} key={k.keyId} onChanged={load} onMade={onMade} />
            ))}
          </Table>
        )}
      </section>
    </>
  );
}
