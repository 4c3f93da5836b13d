// What reaches an intake run from outside: upload-complete and each human decision (one Update per
// kind of lib/intake/decisions.ts), as Updates whose
// validators refuse a malformed, unsigned or foreign payload before anything is written to history
// (a refusal is recorded by the worker through a sink, outside the history); an accepted Update is
// answered with what became of it. No signal is taken: the default signal handler consumes every
// signal and drops it, so none is buffered in the run (and carried through every replay); the
// server caps signals per run and their size (temporal/limits.ts).
// Handlers only check and record; the run's main body (portfolio-intake.ts) acts.
import { condition, proxySinks, setDefaultSignalHandler, setHandler } from '@temporalio/workflow';
import { checkDecision, proofProblem, type DecisionKeys } from '../lib/intake/decision-check';
import { checkUploadComplete, DECISION_KINDS, type DecisionKind } from '../lib/intake/decisions';
import { accepts, acceptsDuringStep, type Trigger } from '../lib/intake/lifecycle';
import { problemsLine } from '../lib/intake/signal-shapes';
import type { IntakeStatus } from '../lib/intake/vocabulary';
import { installClassify } from './intake-classify';
import { decisionUpdates, uploadCompleteUpdate, type Decision, type IntakeAnswer, type IntakeSinks, type RefusalNote, type UploadCompleteSignal } from './messages';

/** Decisions waiting to be acted on. Beyond this a new one is refused (`queue_full`: the API answers 503), never dropped. */
export const MAX_OFFERED_DECISIONS = 100;

export type { Decision };

const { refusals: refusalSink } = proxySinks<IntakeSinks>();

export interface InboxContext {
  submissionId: string;
  partnerActorId: string;
  decisionKeys: DecisionKeys;
  status: () => IntakeStatus;
}

class Refused extends Error {
  constructor(reason: string, detail: string) {
    super(`${reason}: ${detail}`);
    this.name = 'Refused';
  }
}

export class Inbox {
  upload: UploadCompleteSignal | undefined;
  readonly offered: Decision[] = [];
  private readonly offeredIds = new Set<string>();
  /** Request ids of upload-completes taken: a repeat is a no-op. */
  private readonly handled = new Set<string>();
  private readonly answers = new Map<string, IntakeAnswer>();

  constructor(private readonly c: InboxContext) {}

  /** Does the run take `trigger` now, or keep it for the end of the running step (lifecycle.ts acceptsDuringStep)? */
  private takes(trigger: Trigger): boolean {
    const status = this.c.status();
    return accepts(status, trigger) || acceptsDuringStep(status, trigger);
  }

  private note(message: RefusalNote['message'], n: Omit<RefusalNote, 'submissionId' | 'message'>) {
    refusalSink.record({ submissionId: this.c.submissionId, message, ...n });
  }

  /** Why a decision cannot be offered now (null: it can). */
  private decisionRefusal(kind: DecisionKind, payload: unknown): Omit<RefusalNote, 'submissionId' | 'message'> | null {
    const checked = checkDecision(kind, payload, { submissionId: this.c.submissionId, nowMs: Date.now(), keys: this.c.decisionKeys });
    if (!checked.ok) return checked;
    const { requestId, by } = checked.value;
    const at = { requestId, by };
    if (this.offeredIds.has(requestId)) return { reason: 'duplicate_request', detail: 'this decision was taken already', ...at };
    if (!this.takes(kind)) return { reason: 'invalid_transition', detail: `the submission is ${this.c.status()}`, ...at };
    if (this.offered.length >= MAX_OFFERED_DECISIONS) return { reason: 'queue_full', detail: `${MAX_OFFERED_DECISIONS} decisions are waiting`, ...at };
    return null;
  }

  private uploadRefusal(payload: unknown): Omit<RefusalNote, 'submissionId' | 'message'> | null {
    const shape = checkUploadComplete(payload);
    if (!shape.ok) return { reason: 'signal_malformed', detail: problemsLine(shape.problems), requestId: shape.requestId, by: shape.by };
    const { requestId, by, proof } = shape.value;
    // Only the submission's partner completes its upload: the history names no actor the API did not authenticate.
    if (by.actorId !== this.c.partnerActorId) return { reason: 'actor_not_partner', detail: 'only the submission’s partner completes its upload', requestId, by };
    // And only through the API, which signs what it authenticated (as it signs decisions).
    if (!proof) return { reason: 'proof_missing', detail: 'the upload-complete carries no proof', requestId, by };
    const problem = proofProblem('upload_complete', { requestId, by, proof }, { submissionId: this.c.submissionId, nowMs: Date.now(), keys: this.c.decisionKeys });
    if (problem) return { ...problem, requestId, by };
    if (this.handled.has(requestId) || this.upload !== undefined || !this.takes('upload_complete'))
      return { reason: 'invalid_transition', detail: `the submission is ${this.c.status()}`, requestId, by };
    return null;
  }

  private offer(d: Decision) {
    this.offeredIds.add(d.signal.requestId);
    this.offered.push(d);
  }

  /**
   * Is a request waiting for the run's main body: a decision offered, or an upload-complete not yet
   * answered (the upload stays set once taken, so a second one is refused: it is not waiting then).
   */
  waiting(): boolean {
    return this.offered.length > 0 || (this.upload !== undefined && !this.answers.has(this.upload.requestId));
  }

  /** What became of a message: the Update waiting for it returns this. */
  answer(requestId: string, a: IntakeAnswer) {
    this.answers.set(requestId, a);
  }

  /** The run ends: decisions still waiting will never be acted on. */
  answerWaiting(intakeStatus: IntakeStatus) {
    if (this.upload && !this.answers.has(this.upload.requestId)) this.answer(this.upload.requestId, { taken: false, reason: 'state_moved', intakeStatus });
    for (const d of this.offered.splice(0)) this.answer(d.signal.requestId, { taken: false, reason: 'state_moved', intakeStatus });
  }

  private async answered(requestId: string): Promise<IntakeAnswer> {
    await condition(() => this.answers.has(requestId));
    return this.answers.get(requestId) as IntakeAnswer;
  }

  /** Set every handler. */
  install() {
    const validateWith = (message: RefusalNote['message'], refusal: (p: unknown) => ReturnType<Inbox['uploadRefusal']>) => (p: unknown) => {
      const r = refusal(p);
      if (!r) return;
      this.note(message, r);
      throw new Refused(r.reason, r.detail);
    };
    setHandler(
      uploadCompleteUpdate,
      async (s) => {
        this.handled.add(s.requestId);
        this.upload = s;
        return this.answered(s.requestId);
      },
      { validator: validateWith('uploadComplete', (p) => this.uploadRefusal(p)) },
    );
    for (const kind of DECISION_KINDS)
      setHandler(
        decisionUpdates[kind],
        async (s: Decision['signal']) => {
          this.offer({ kind, signal: s } as Decision);
          return this.answered(s.requestId);
        },
        { validator: validateWith(kind, (p) => this.decisionRefusal(kind, p)) },
      );
    installClassify(this.c);
    // Nothing here takes a signal. Without a default handler the SDK would keep each one (up to the
    // blob limit in size) buffered in the run, and every replay would carry them all again.
    setDefaultSignalHandler(() => undefined);
  }
}
