// `npm run project -- --help`
// The governed projection of one private media-store draft into the public runtime store, and its
// inverse, the takedown. Operator commands, not routes and not worker steps: each runs with the
// operator's actor id, which must be an active human-operator mapping holding
// portfolio_intake:review. Both are idempotent and audited (access_audit); see lib/directory/projection.ts.
import { parseArgs } from 'node:util';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { createSql } from '../lib/db';
import { projectDraft, ProjectionRefusedError, unpublishAsset } from '../lib/directory/projection';
import { createObjectStore } from '../lib/storage';

const USAGE = `usage:
  npm run project -- --document <mediaStoreDocumentId> --operator <actorId>
      Publish a promoted draft: checks the operator and the rights / consent postures, makes the
      public renditions (WebP, metadata stripped, long edge 2048 and 640 px) and lists the asset.
  npm run project -- --unpublish <assetId> --operator <actorId> --reason <text>
      Take a published asset down: it leaves every public read, its /media URLs answer 410 and
      its rendition objects are deleted. The reason (3..2000 characters) is kept and audited.

options:
  --document <id>    media-store document id (mdoc_...), as the promoted submission names it
  --unpublish <id>   portfolio asset id (pfa_...)
  --operator <id>    actor id of an active human operator with portfolio_intake:review
  --reason <text>    why the asset comes down (with --unpublish)
  -h, --help         this text

Reads DATABASE_URL (default: the embedded stack's) and the storage settings (STORAGE_DRIVER, ...).`;

function usage(problem?: string): never {
  if (problem) console.error(`${problem}\n`);
  (problem ? console.error : console.log)(USAGE);
  process.exit(problem ? 64 : 0); // EX_USAGE
}

let values: { document?: string; unpublish?: string; operator?: string; reason?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      document: { type: 'string' },
      unpublish: { type: 'string' },
      operator: { type: 'string' },
      reason: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  usage((err as Error).message);
}
if (values.help) usage();
if (!values.operator) usage('--operator is required');
if (Boolean(values.document) === Boolean(values.unpublish)) usage('give exactly one of --document or --unpublish');
if (values.unpublish && !values.reason) usage('--unpublish needs --reason');

const cfg = loadConfigOrExit(toolConfigSchema);
const sql = createSql(databaseUrlOf(cfg), { max: 1 });
const deps = { sql, store: createObjectStore(cfg), maxImagePixels: cfg.MAX_IMAGE_PIXELS };
try {
  if (values.document) {
    const r = await projectDraft(deps, { documentId: values.document, operatorActorId: values.operator });
    console.log(
      r.status === 'projected'
        ? `Projected ${r.documentId} as public portfolio asset ${r.assetId}.`
        : `${r.documentId} was already projected as ${r.assetId}; nothing changed.`,
    );
  } else {
    const r = await unpublishAsset(deps, { assetId: values.unpublish!, operatorActorId: values.operator, reason: values.reason! });
    console.log(
      r.status === 'unpublished'
        ? `Took ${r.assetId} down; ${r.deletedRenditions} rendition object(s) deleted.`
        : `${r.assetId} was already taken down; nothing changed.`,
    );
  }
} catch (err) {
  if (!(err instanceof ProjectionRefusedError)) throw err;
  console.error(`Refused (${err.reason}): ${err.message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
