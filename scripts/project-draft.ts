// `npm run project -- --document <mediaStoreDocumentId> --operator <actorId> [--image-url URL]`
// The governed projection of one private media-store draft into the public runtime store. An
// operator command, not a route and not a worker: it runs with the operator's actor id, which must
// be an active human-operator mapping holding portfolio_intake:review; the draft's rights and
// consent posture must allow a public surface. Idempotent; audited (access_audit).
import { parseArgs } from 'node:util';
import { databaseUrlOf, loadConfigOrExit, toolConfigSchema } from '../lib/config';
import { createSql } from '../lib/db';
import { projectDraft, ProjectionRefusedError } from '../lib/directory/projection';

const { values } = parseArgs({
  options: {
    document: { type: 'string' },
    operator: { type: 'string' },
    'image-url': { type: 'string' },
  },
});
if (!values.document || !values.operator) {
  console.error('usage: npm run project -- --document <mediaStoreDocumentId> --operator <actorId> [--image-url URL]');
  process.exit(64); // EX_USAGE
}
if (values['image-url'] !== undefined && !/^https:\/\/\S+$/.test(values['image-url'])) {
  console.error('--image-url must be an https URL');
  process.exit(64);
}

const cfg = loadConfigOrExit(toolConfigSchema);
const sql = createSql(databaseUrlOf(cfg), { max: 1 });
try {
  const r = await projectDraft(sql, { documentId: values.document, operatorActorId: values.operator, imageUrl: values['image-url'] });
  console.log(
    r.status === 'projected'
      ? `Projected ${r.documentId} as public portfolio asset ${r.assetId}.`
      : `${r.documentId} was already projected as ${r.assetId}; nothing changed.`,
  );
} catch (err) {
  if (!(err instanceof ProjectionRefusedError)) throw err;
  console.error(`Refused (${err.reason}): ${err.message}`);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
