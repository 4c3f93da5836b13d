// How long an intake run's history grows before the run continues as new (workflows/intake-run.ts),
// and so what the Temporal servers' own history limits must stay well above (temporal/limits.ts).
// A leaf: the workflow bundle and the server launchers both read it.

/** A waiting run continues as new past this many history events, so a replay of it stays short... */
export const MAX_HISTORY_EVENTS = 1000;
/** ... or this many bytes of history. */
export const MAX_HISTORY_BYTES = 2 * 1024 * 1024;
