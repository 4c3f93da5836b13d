// The legacy store's tables the cutover reads, and the authority its rows are recorded under.
export const LEGACY_TABLES = ['studios', 'artists', 'portfolio_items', 'designs'] as const;
export type LegacyTable = (typeof LEGACY_TABLES)[number];
export const LEGACY_AUTHORITY = 'legacy_directory';
