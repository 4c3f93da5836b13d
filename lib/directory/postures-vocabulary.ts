// Governance postures that allow a public surface (the same sets the projection checks). Pure data:
// the console's page imports it too.
export const PUBLISHABLE_RIGHTS = ['owner_attested', 'artist_attested'] as const;
export const PUBLISHABLE_CONSENT = ['client_consented', 'not_required'] as const;
