// A runtime artist profile (what GET /api/v1/artists/{id} answers) for tests that publish: the
// governed projection refuses an artist without one (lib/directory/projection.ts runtimeArtistOf).
import type { TestStack } from './stack';

export async function runtimeArtistProfile(stack: TestStack, artistId: string, name = 'Test Artist'): Promise<void> {
  await stack.sql`insert into artists (id, name, bio, source_type) values (${artistId}, ${name}, 'A test profile.', 'test_fixture') on conflict (id) do nothing`;
}

/** The permissions of an operator who reviews and publishes. */
export const PUBLISHING_OPERATOR = ['portfolio_intake:review', 'portfolios:publish'] as const;
