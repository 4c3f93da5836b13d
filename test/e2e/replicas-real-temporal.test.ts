// The replica e2e (test/e2e/replicas-suite.ts: 40 intakes through HAProxy to promoted, an API
// replica and a worker SIGKILLed mid-run, shared rate limits, claims, ordered webhooks) on the real
// Temporal server: PostgreSQL persistence and SQL visibility, as `npm start -- --replicas 2
// --temporal server` runs it (issue 37 item 2).
import { replicaSuite } from './replicas-suite';
import { realServerOrSkip } from './real-temporal-suite';

const bin = realServerOrSkip('replicas on the real Temporal server');
if (bin) replicaSuite({ pooler: false, realTemporal: bin });
