/**
 * The user id the aggregator knows a player by (Hub88's `user`: at least 4 characters and nothing that identifies the
 * person, so neither the phone nor the name): `u` and the player id, at least 6 digits. 42 -> u000042.
 */
export function seamlessUserId(playerId: number): string {
  return `u${String(playerId).padStart(6, '0')}`;
}

/** The player id behind a user id, or null when it is not one of ours. */
export function playerOfUserId(user: unknown): number | null {
  if (typeof user !== 'string' || !/^u\d{6,15}$/.test(user)) return null;
  const id = Number(user.slice(1));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
