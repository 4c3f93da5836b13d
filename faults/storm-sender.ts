// F21's attacker (faults/storm.ts), a process of its own run at the lowest CPU priority: an attacker
// sends from a machine of its own, so its own CPU (building and framing the signals) must not be
// counted against the stack; the Temporal server's work to take or refuse them still is. Sends
// --signals signals of --chars characters to each of --ids (submission ids) straight to
// the Temporal frontend at --address (loopback only), eight in flight per run, and prints one
// JSON line: when it sent (epoch ms), and what the server took and refused, per submission.
import { Client, Connection } from '@temporalio/client';
import { parseCli } from '../lib/cli';
import { FRONTEND_SERVER_NAME, sdkTlsOf } from '../temporal/cluster-tls';
import { intakeWorkflowId } from '../workflows/messages';

const { values } = parseCli('F21\'s attacker: signals straight to a Temporal frontend on loopback (faults/storm.ts runs it).', 'tsx faults/storm-sender.ts --', {
  options: {
    address: { type: 'string', description: 'the Temporal frontend, host:port on loopback' },
    ids: { type: 'string', description: 'submission ids, comma-separated' },
    signals: { type: 'string', description: 'signals per submission (1-1000)' },
    chars: { type: 'string', description: 'characters of notes per signal (1-1000000)' },
    at: { type: 'string', description: 'start sending at this time (epoch ms), once connected' },
    seconds: { type: 'string', default: '0', description: 'send the burst again until this long has passed (0-60; at most 60 bursts)' },
    'tls-ca-path': { type: 'string', description: 'with mTLS (the real server): the CA to check the frontend with' },
    'tls-cert-path': { type: 'string', description: 'with mTLS: a client certificate (past the mTLS, the door\'s limits must still hold)' },
    'tls-key-path': { type: 'string', description: 'with mTLS: its key' },
    'tls-server-name': { type: 'string', description: 'with mTLS: the name in the frontend\'s certificate' },
  },
});
const address = values.address ?? '';
const ids = (values.ids ?? '').split(',').filter(Boolean);
const count = Math.min(1000, Number(values.signals ?? 0));
const chars = Math.min(1_000_000, Number(values.chars ?? 0));
if (!/^(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(address) || ids.length === 0 || !(count > 0) || !(chars > 0)) {
  console.error(`storm-sender: --address (loopback), --ids, --signals and --chars are required (got ${address || 'no address'})`);
  process.exit(64);
}

// As an outsider would: no retries, no credentials beyond the address (and a client certificate,
// with the real server's mTLS: a caller past it still meets the door's limits).
const tlsFiles = values['tls-cert-path'] && values['tls-key-path'] && values['tls-ca-path'] ? { ca: values['tls-ca-path'], cert: values['tls-cert-path'], key: values['tls-key-path'], serverName: values['tls-server-name'] ?? FRONTEND_SERVER_NAME } : undefined;
const connection = await Connection.connect({ address, interceptors: [], ...(tlsFiles ? { tls: sdkTlsOf(tlsFiles) } : {}) });
const client = new Client({ connection });
const notes = 'x'.repeat(chars);
// Connected and ready: wait for the agreed moment, so the measured stream meets the storm.
await new Promise((r) => setTimeout(r, Math.max(0, Number(values.at ?? 0) - Date.now())));
const startedAt = Date.now();
/** One burst: `count` signals to each run, eight in flight per run. */
const burst = (wave: number) =>
  Promise.all(
    ids.map(async (id) => {
      const h = client.workflow.getHandle(intakeWorkflowId(id));
      let taken = 0;
      let refused = 0;
      const queue = Array.from({ length: count }, (_, i) => i);
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
            try {
              await h.signal('approve', { requestId: `f21-${id.slice(0, 12)}-${wave}-${i}`, by: { actorId: 'storm', credentialId: 'forged' }, reviewNotes: notes } as never);
              taken++;
            } catch {
              refused++;
            }
          }
        }),
      );
      return { id, taken, refused };
    }),
  );
const untilMs = startedAt + Math.min(60, Math.max(0, Number(values.seconds ?? 0))) * 1000;
const tallies = await burst(0);
for (let wave = 1; wave < 60 && Date.now() < untilMs; wave++)
  for (const [k, t] of (await burst(wave)).entries()) {
    tallies[k]!.taken += t.taken;
    tallies[k]!.refused += t.refused;
  }
await connection.close();
console.log(JSON.stringify({ startedAt, endedAt: Date.now(), tallies }));
