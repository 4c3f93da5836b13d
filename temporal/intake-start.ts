// How an intake workflow is started, once: by the API at create, and by the worker's reconciler
// when an open submission's run is gone. The same id, queue, summary and search attributes.
import type { Client, WorkflowIdReusePolicy } from '@temporalio/client';
import type { SubmissionRow } from '../lib/intake/submissions';
import {
  ArtistCanonicalIdKey,
  IntakeStatusKey,
  intakeWorkflowId,
  PartnerActorIdKey,
  ReviewStatusKey,
  TenantIdKey,
  type IntakeInput,
} from '../workflows/messages';
import type { portfolioIntake } from '../workflows/portfolio-intake';

export interface IntakeStart {
  client: Client;
  taskQueue: string;
  row: SubmissionRow;
  /** What the run knows beside the row: the upload window, the API's decision keys, where a resumed run starts. */
  input: Pick<IntakeInput, 'uploadDeadlineSeconds' | 'decisionKeys' | 'resume'>;
  /** The Web UI's summary names the file when the caller knows it. */
  fileName?: string | undefined;
  /** REJECT_DUPLICATE at create; a resumption reuses the id of a run that failed or was terminated. */
  reusePolicy: WorkflowIdReusePolicy;
}

export async function startIntakeRun(o: IntakeStart): Promise<{ runId: string }> {
  const { row } = o;
  const input: IntakeInput = {
    submissionId: row.submissionId,
    tenantId: row.tenantId,
    artistCanonicalId: row.artistCanonicalId,
    partnerActorId: row.partnerActorId,
    credentialId: row.credentialId,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    stagingKey: row.stagingKey,
    ...o.input,
  };
  const what = o.fileName ?? 'submission';
  const handle = await o.client.workflow.start<typeof portfolioIntake>('portfolioIntake', {
    workflowId: intakeWorkflowId(row.submissionId),
    taskQueue: o.taskQueue,
    args: [input],
    // The Web UI's summary of the run (its current-details line is kept by the workflow).
    staticSummary: `${what}: ${row.sizeBytes} bytes of ${row.mimeType} for tenant ${row.tenantId}${o.input.resume ? ` (${o.input.resume.why})` : ''}`,
    staticDetails: [
      `**Submission** ${row.submissionId}`,
      `**Tenant** ${row.tenantId}`,
      `**Artist** ${row.artistCanonicalId}`,
      `**Partner** ${row.partnerActorId}`,
      `**File** ${what} (${row.mimeType}, ${row.sizeBytes} bytes)`,
      ...(o.input.resume ? [`**Resumed** ${o.input.resume.why}`] : []),
    ].join('  \n'),
    workflowIdConflictPolicy: o.reusePolicy === 'REJECT_DUPLICATE' ? 'USE_EXISTING' : 'FAIL',
    workflowIdReusePolicy: o.reusePolicy,
    typedSearchAttributes: [
      { key: IntakeStatusKey, value: row.intakeStatus },
      { key: ReviewStatusKey, value: row.reviewStatus },
      { key: TenantIdKey, value: row.tenantId },
      { key: ArtistCanonicalIdKey, value: row.artistCanonicalId },
      { key: PartnerActorIdKey, value: row.partnerActorId },
    ],
  });
  return { runId: handle.firstExecutionRunId };
}
