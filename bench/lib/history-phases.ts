// Where a workflow's time goes, read from its recorded history: starting at the first event of a
// given signal or Update (its acceptance: an Update is in the history from then on), the time between consecutive events up to the first activity completion and the
// workflow task that follows it (queue waits, workflow code, activity execution).
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** temporal.api.enums.v1.EventType numbers of the events these workflows produce. */
export const EVENT_TYPE_NAMES: Record<number, string> = {
  1: 'WorkflowExecutionStarted',
  2: 'WorkflowExecutionCompleted',
  5: 'WorkflowTaskScheduled',
  6: 'WorkflowTaskStarted',
  7: 'WorkflowTaskCompleted',
  10: 'ActivityTaskScheduled',
  11: 'ActivityTaskStarted',
  12: 'ActivityTaskCompleted',
  17: 'TimerStarted',
  18: 'TimerFired',
  19: 'TimerCanceled',
  25: 'MarkerRecorded',
  26: 'WorkflowExecutionSignaled',
  40: 'UpsertWorkflowSearchAttributes',
  41: 'WorkflowExecutionUpdateAccepted',
  42: 'WorkflowExecutionUpdateRejected',
  43: 'WorkflowExecutionUpdateCompleted',
  47: 'WorkflowExecutionUpdateAdmitted',
};

function ms(e: HistoryEvent): number {
  const t = e.eventTime;
  return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
}

/**
 * The phases after the signal or Update `name` arrives (an Update: from its acceptance): [from -> to,
 * ms] for each step until the workflow task completed after the first ActivityTaskCompleted.
 */
export function phasesAfterMessage(events: HistoryEvent[], name: string): { phase: string; ms: number }[] {
  const start = events.findIndex(
    (e) =>
      (Number(e.eventType) === 26 && e.workflowExecutionSignaledEventAttributes?.signalName === name) ||
      (Number(e.eventType) === 41 && e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === name),
  );
  if (start < 0) return [];
  const out: { phase: string; ms: number }[] = [];
  let activityDone = false;
  for (let i = start + 1; i < events.length; i++) {
    const prev = events[i - 1]!;
    const e = events[i]!;
    const type = Number(e.eventType);
    out.push({ phase: `${EVENT_TYPE_NAMES[Number(prev.eventType)] ?? prev.eventType} -> ${EVENT_TYPE_NAMES[type] ?? type}`, ms: ms(e) - ms(prev) });
    if (type === 12) activityDone = true;
    if (activityDone && type === 7) break;
  }
  return out;
}

/** Per phase position, the p50 over many histories (phases line up when the shapes are equal). */
export function medianPhases(all: { phase: string; ms: number }[][]): { step: number; phase: string; p50_ms: number }[] {
  const longest = all.reduce((a, b) => (b.length > a.length ? b : a), [] as { phase: string; ms: number }[]);
  return longest.map((p, i) => {
    const xs = all.map((h) => h[i]).filter((x) => x?.phase === p.phase).map((x) => x!.ms).sort((a, b) => a - b);
    return { step: i + 1, phase: p.phase, p50_ms: Math.round((xs[Math.floor(xs.length / 2)] ?? NaN) * 10) / 10 };
  });
}
