// The replica e2e (test/e2e/replicas-suite.ts) on PostgreSQL directly.
import { replicaSuite } from './replicas-suite';

replicaSuite({ pooler: false });
