// The baseline of R5-R7: a bare workflow of the intake's shape (start, signal, activity, signal,
// activity) with trivial activities and nothing else: no search attributes, no queries but one.
import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type * as activities from './activities';

export const firstSignal = defineSignal('first');
export const secondSignal = defineSignal('second');
export const stageQuery = defineQuery<number>('stage');

const acts = proxyActivities<typeof activities>({ startToCloseTimeout: '30 seconds' });

export async function bareIntake(): Promise<void> {
  let first = false;
  let second = false;
  let stage = 0;
  setHandler(firstSignal, () => void (first = true));
  setHandler(secondSignal, () => void (second = true));
  setHandler(stageQuery, () => stage);
  await condition(() => first);
  await acts.stepOne();
  stage = 1;
  await condition(() => second);
  await acts.stepTwo();
  stage = 2;
}
