/**
 * Spec §2: the invite link is {origin}/register?code=PR{profileId}. Registering through it stores the code,
 * which links the new player to the inviter.
 */
export function inviteLink(origin: string, profileId: string): string {
  return `${origin.replace(/\/+$/, '')}/register?code=PR${encodeURIComponent(profileId.trim())}`;
}
