// A short workflow per resolution request: idempotent by its id (tenant + key hash) and visible to
// on-call staff. It never creates a public artist profile; the evidence is review evidence, not KYC.
import { proxyActivities } from '@temporalio/workflow';
import type { IntakeActivities } from '../activities/types';
import type { ArtistResolutionInput, ArtistResolutionResult } from './messages';

const acts = proxyActivities<IntakeActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

export async function artistResolution(input: ArtistResolutionInput): Promise<ArtistResolutionResult> {
  return acts.resolveArtist(input);
}
