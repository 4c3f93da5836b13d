// The reference classifier (npm run classifier): its own process with its own API key, a client of
// the agent lane like any partner's worker. It claims submissions awaiting review, reads each one's
// agent context, fetches the preview, judges what it can (classifier/judge.ts) and posts a
// classification. Offline, on the CPU. Configuration: CLASSIFIER_API_URL (where the API is),
// CLASSIFIER_API_KEY (a key mapped with agent_context:read and portfolio_intake:classify; docs/agents.md),
// CLASSIFIER_BATCH, CLASSIFIER_IDLE_MS, CLASSIFIER_ONCE=true (stop when the queue is empty).
import { z } from 'zod';
import { loadConfigOrExit } from '../lib/config/env';
import { loadJudge } from './judge';

const INTAKE = '/api/private/portfolio-intake/v1';

const schema = z.object({
  CLASSIFIER_API_URL: z.url().default('http://127.0.0.1:3000'),
  CLASSIFIER_API_KEY: z.string({ error: 'required: a key mapped with agent_context:read and portfolio_intake:classify (docs/agents.md: npm run iam)' }).min(10),
  CLASSIFIER_BATCH: z.coerce.number().int().min(1).max(20).default(5),
  CLASSIFIER_IDLE_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  CLASSIFIER_ONCE: z.enum(['true', 'false']).default('false'),
});

const USAGE = `usage: npm run classifier

The reference classifier: claims submissions awaiting review, judges each preview on the CPU and
posts a classification (docs/agents.md). It takes no options; its environment:
  CLASSIFIER_API_URL   where the API is (default http://127.0.0.1:3000)
  CLASSIFIER_API_KEY   required: a key mapped with agent_context:read and portfolio_intake:classify
  CLASSIFIER_BATCH     submissions claimed at a time, 1-20 (default 5)
  CLASSIFIER_IDLE_MS   the wait when the queue is empty (default 2000)
  CLASSIFIER_ONCE      true: stop when the queue is empty (default false)

options:
  -h, --help  this text`;

function config() {
  const c = loadConfigOrExit(schema);
  return { url: c.CLASSIFIER_API_URL, key: c.CLASSIFIER_API_KEY, batch: c.CLASSIFIER_BATCH, idleMs: c.CLASSIFIER_IDLE_MS, once: c.CLASSIFIER_ONCE === 'true' };
}

export type Cfg = ReturnType<typeof config>;

async function api(cfg: Cfg, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, cfg.url), {
    method,
    headers: { 'x-api-key': cfg.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => null)) as { data?: unknown; code?: string; detail?: string } | null;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json?.code ?? ''} ${json?.detail ?? ''}`.trim());
  return json?.data;
}

/** One line per classification recorded (its id, the flags it set and how long it took): what on-call reads. */
const recordedLine = (submissionId: string, c: { classificationId?: string; contentFlags?: { id: string; confidence: number }[] } | undefined, ms: number) =>
  `classifier: ${submissionId}: recorded ${c?.classificationId ?? '(no id)'} (${(c?.contentFlags ?? []).map((f) => `${f.id} ${f.confidence.toFixed(2)}`).join(', ') || 'no flags'}) in ${ms} ms`;

export async function run(cfg: Cfg, stopped: () => boolean = () => false, say: (line: string) => void = (line) => console.log(line)): Promise<{ classified: number; failed: number }> {
  const judge = await loadJudge();
  say(`classifier: API ${cfg.url}, TensorFlow.js backend ${judge.backend}`);
  const done = { classified: 0, failed: 0 };
  while (!stopped()) {
    const claimed = (await api(cfg, 'POST', `${INTAKE}/classification-queue/claim`, { limit: cfg.batch })) as { submissionId: string; contextPath: string }[];
    if (claimed.length === 0) {
      if (cfg.once) break;
      await new Promise((r) => setTimeout(r, cfg.idleMs));
      continue;
    }
    for (const c of claimed) {
      const started = Date.now();
      try {
        const ctx = (await api(cfg, 'GET', c.contextPath)) as { preview: { url: string } | null; facts: { width: number | null; height: number | null } };
        if (!ctx.preview) throw new Error('no preview yet');
        const preview = await fetch(ctx.preview.url);
        if (!preview.ok) throw new Error(`preview: ${preview.status}`);
        const body = await judge.judge(Buffer.from(await preview.arrayBuffer()), ctx.facts);
        const recorded = (await api(cfg, 'POST', `${INTAKE}/submissions/${c.submissionId}/classifications`, body)) as Parameters<typeof recordedLine>[1];
        done.classified++;
        say(recordedLine(c.submissionId, recorded, Date.now() - started));
      } catch (err) {
        done.failed++;
        console.warn(`classifier: ${c.submissionId}: ${(err as Error).message} (its lease lapses and it is claimed again)`);
      }
    }
  }
  return done;
}

if (process.argv[1] && /classifier[\\/]main\.(ts|js)$/.test(process.argv[1])) {
  // --help before the configuration: it says what the configuration is. The classifier takes no options.
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  if (args.length) {
    console.error(`unknown option '${args[0]}'\n\n${USAGE}`);
    process.exit(64); // EX_USAGE
  }
  const cfg = config();
  let stop = false;
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => (stop = true));
  run(cfg, () => stop).then(
    (d) => {
      console.log(`classifier: stopped; classified ${d.classified}, failed ${d.failed}`);
      process.exit(0);
    },
    (err) => {
      console.error(`classifier: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
