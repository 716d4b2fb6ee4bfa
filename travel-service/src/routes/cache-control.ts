/** What the service answers cannot change while the process runs; a restart may bring new plans. */
export const STABLE = 'public, max-age=300';
/** Answers that differ on every request (the featured itinerary) or describe the moment (health). */
export const NO_STORE = 'no-store';
