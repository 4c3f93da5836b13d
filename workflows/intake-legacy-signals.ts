// The signal handlers of runs without the decision-updates marker, a compatibility item
// (workflows/compat.ts): exactly the handlers those runs were recorded with. A signal's shape is
// checked behind the signal-shape-check patch; a malformed one is recorded as refused by an
// activity (at most MAX_RECORDED_REFUSALS per run), never offered.
import { log, patched, setHandler } from '@temporalio/workflow';
import { problemsLine, SIGNAL_CHECKS, type CheckedSignal } from '../lib/intake/signal-shapes';
import { SIGNAL_SHAPE_PATCH } from './compat';
import { approveSignal, rejectSignal, uploadCompleteSignal, type Decision, type RefusalNote, type UploadCompleteSignal } from './messages';

/** How runs without the Updates record a malformed signal (an activity). */
export type RecordMalformed = (i: { signal: CheckedSignal; requestId: string | null; by: RefusalNote['by']; detail: string; seq: number }) => Promise<void>;

/** Malformed signals recorded per run by the runs that record them as activities. */
const MAX_RECORDED_REFUSALS = 100;

export function installLegacySignals(inbox: { offerSignalled(d: Decision): void; takeSignalledUpload(s: UploadCompleteSignal): void }, recordMalformed: RecordMalformed) {
  let refusals = 0;
  const wellFormed = async <S extends CheckedSignal>(name: S, payload: unknown): Promise<boolean> => {
    const checked = SIGNAL_CHECKS[name](payload);
    if (checked.ok) return true;
    if (!patched(SIGNAL_SHAPE_PATCH)) return typeof payload === 'object' && payload !== null;
    const detail = problemsLine(checked.problems);
    if (refusals >= MAX_RECORDED_REFUSALS) {
      log.warn('malformed signal dropped (refusal records full)', { signal: name, detail });
      return false;
    }
    refusals++;
    await recordMalformed({ signal: name, requestId: checked.requestId, by: checked.by, detail, seq: refusals });
    return false;
  };
  setHandler(uploadCompleteSignal, async (s) => {
    if (await wellFormed('uploadComplete', s)) inbox.takeSignalledUpload(s);
  });
  setHandler(approveSignal, async (s) => {
    if (await wellFormed('approve', s)) inbox.offerSignalled({ kind: 'approve', signal: s });
  });
  setHandler(rejectSignal, async (s) => {
    if (await wellFormed('reject', s)) inbox.offerSignalled({ kind: 'reject', signal: s });
  });
}
