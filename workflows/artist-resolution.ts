// A short workflow per resolution request: idempotent by its id (tenant + key hash) and visible to
// on-call staff. It never creates a public artist profile; the evidence is review evidence, not KYC.
import { proxyActivities } from '@temporalio/workflow';
import type { IntakeActivities } from '../activities/registered';
import type { ArtistResolutionInput, ArtistResolutionResult } from './messages';

const acts = proxyActivities<IntakeActivities>({
  startToCloseTimeout: '30 seconds',
  // Bounded (about a minute): a resolution that cannot be made fails the run (listed as Failed in
  // the Web UI); the partner's retry of the request starts a new one (ALLOW_DUPLICATE).
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 10 },
});

export async function artistResolution(input: ArtistResolutionInput): Promise<ArtistResolutionResult> {
  return acts.resolveArtist(input);
}
