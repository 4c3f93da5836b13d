// `npm run project -- --help`
// Publish a promoted media-store draft, or take a published asset down, through the operator
// routes of the running API (api/routes/intake/publishing.ts): the same code path as the console,
// with a verified credential. The operator is whoever the bearer token proves (an active human
// operator mapping holding portfolios:publish), never an id the caller asserts. Dry run unless
// --apply: the plan (what would become public, which renditions, the posture check) changes nothing.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DATA_DIR_DEFAULT, EMBEDDED_DEFAULTS, loadConfigOrExit } from '../lib/config';
import { apiBaseOf } from '../lib/stack-run';

const USAGE = `usage:
  npm run project -- --document <mediaStoreDocumentId> [--artist <runtimeArtistId>] [--apply]
      Publish a promoted draft. Without --apply: the plan (the fields that would become public,
      the renditions and their sizes, the rights / consent posture check, the artist's runtime
      profile) and nothing changes. With --apply: the public renditions are made (WebP, metadata
      stripped, long edge 2048 and 640 px) and the asset is listed.
  npm run project -- --unpublish <assetId> --reason <text> [--apply]
      Take a published asset down: it leaves every public read, its /media URLs answer 410 and
      its rendition objects are deleted. The reason (3..2000 characters) is kept and audited.
      Without --apply: what would come down, and nothing changes.

options:
  --document <id>    media-store document id (mdoc_...), as the promoted submission names it
  --unpublish <id>   portfolio asset id (pfa_...)
  --reason <text>    why the asset comes down (with --unpublish)
  --artist <id>      the listed runtime artist profile to publish under, when the draft's artist
                     has none yet (GET /api/v1/artists/{id} must answer it)
  --apply            do it (default: dry run)
  --token <bearer>   your operator bearer token (default: $OPERATOR_TOKEN); on the embedded stack
                     \`npm run iam -- token --subject <you>\`
  --api <url>        the running API (default: $PUBLIC_BASE_URL, else the running stack's .data/stack.json, else http://127.0.0.1:$PORT, port 3000)
  -h, --help         this text

The API verifies the token and your mapping (human operator, portfolios:publish) and audits every
publish, takedown and refusal in access_audit. Exit 0: done or publishable; 1: refused.`;

function usage(problem?: string): never {
  if (problem) console.error(`${problem}\n`);
  (problem ? console.error : console.log)(USAGE);
  process.exit(problem ? 64 : 0); // EX_USAGE
}

let values: { document?: string; unpublish?: string; reason?: string; artist?: string; apply?: boolean; token?: string; api?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      document: { type: 'string' },
      unpublish: { type: 'string' },
      reason: { type: 'string' },
      artist: { type: 'string' },
      apply: { type: 'boolean' },
      token: { type: 'string' },
      api: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  const message = (err as Error).message;
  usage(
    message.includes("'--operator'")
      ? '--operator is no longer taken: an asserted id is no authority. Give your bearer token (--token or OPERATOR_TOKEN); the API verifies it.'
      : message,
  );
}
if (values.help) usage();
if (Boolean(values.document) === Boolean(values.unpublish)) usage('give exactly one of --document or --unpublish');
if (values.unpublish && !values.reason) usage('--unpublish needs --reason');
if (values.unpublish && values.artist) usage('--artist goes with --document');
const env = loadConfigOrExit(
  z.object({
    OPERATOR_TOKEN: z.string().optional(),
    PUBLIC_BASE_URL: z.url().optional(),
    PORT: z.coerce.number().int().min(1).max(65535).optional(),
    DATA_DIR: z.string().min(1).default(DATA_DIR_DEFAULT),
  }),
);
const token = values.token ?? env.OPERATOR_TOKEN;
if (!token) usage('an operator bearer token is required: --token <bearer> or OPERATOR_TOKEN');
// The API this tool talks to, and why that one: --api, PUBLIC_BASE_URL, the running stack's run file
// (DATA_DIR/stack.json), PORT, else the default port. Said in one line, so a token never goes to another stack unnoticed.
const { url: api, source: apiSource } = apiBaseOf({ flag: values.api, publicBaseUrl: env.PUBLIC_BASE_URL, port: env.PORT, dataDir: env.DATA_DIR, defaultPort: EMBEDDED_DEFAULTS.apiPort });
console.error(`[project] API ${api} (from ${apiSource})`);
const INTAKE = '/api/private/portfolio-intake/v1';

interface Answer {
  status: number;
  body: any;
}

async function post(path: string, body: Record<string, unknown>): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${api}${INTAKE}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
  } catch {
    console.error(`error: the API at ${api} is not reachable (is \`npm start\` running, or --api set?)`);
    process.exit(1);
  }
  return { status: res.status, body: await res.json().catch(() => null) };
}

function refused(a: Answer): never {
  const b = a.body ?? {};
  console.error(`Refused (${a.status} ${b.code ?? 'error'}): ${b.detail ?? 'no detail'}`);
  process.exit(1);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

if (values.document) {
  const a = await post(`/media-documents/${encodeURIComponent(values.document)}/publish`, {
    dryRun: !values.apply,
    ...(values.artist ? { artistId: values.artist } : {}),
  });
  if (a.status !== 200) refused(a);
  const d = a.body.data;
  if (!d.dryRun) {
    console.log(
      d.status === 'projected'
        ? `Published ${d.documentId} as public portfolio asset ${d.assetId} (artist ${d.asset.artist_id}): ${d.asset.image_url}`
        : `${d.documentId} was already published as ${d.assetId}; nothing changed.`,
    );
  } else {
    console.log(`Dry run (nothing changed): ${d.documentId} -> ${d.assetId}, verdict ${d.verdict}`);
    console.log(`  artist     ${d.asset.artist_id ?? '(no runtime profile)'} (canonical ${d.artistCanonicalId})${d.linksArtistProfile ? ', link recorded on --apply' : ''}`);
    console.log(`  title      ${JSON.stringify(d.asset.title)}`);
    console.log(`  tags       ${d.asset.tags.join(', ') || '-'}; styles ${d.asset.styles.join(', ') || '-'}; placement ${d.asset.placement ?? '-'}`);
    console.log(`  postures   rights ${d.postureCheck.rightsPosture}, consent ${d.postureCheck.consentPosture}: ${d.postureCheck.verdict}`);
    for (const r of d.renditions) console.log(`  rendition  ${r.name} ${r.width}x${r.height} ${kb(r.sizeBytes)} at ${r.url}`);
    for (const r of d.reasons) console.log(`  refused    ${r.code}: ${r.message}`);
    if (d.verdict === 'refused') process.exitCode = 1;
    else if (d.verdict === 'publishable') console.log('Run again with --apply to publish.');
  }
} else {
  const a = await post(`/portfolio-assets/${encodeURIComponent(values.unpublish!)}/unpublish`, { dryRun: !values.apply, reason: values.reason });
  if (a.status !== 200) refused(a);
  const d = a.body.data;
  if (d.dryRun) {
    console.log(`Dry run (nothing changed): ${d.assetId} ${d.status === 'would_unpublish' ? 'would come down' : 'is already taken down'} (artist ${d.artistId}, ${JSON.stringify(d.title)})`);
    for (const r of d.renditions ?? []) console.log(`  rendition  ${r.name} ${kb(r.sizeBytes)}`);
    if (d.status === 'would_unpublish') console.log('Run again with --apply to take it down.');
  } else {
    console.log(
      d.status === 'unpublished'
        ? `Took ${d.assetId} down; ${d.deletedRenditions} rendition object(s) deleted.`
        : `${d.assetId} was already taken down; nothing changed.`,
    );
  }
}
