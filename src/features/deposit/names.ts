/**
 * A bank's or method's name in the player's language: the lookup's `name` (asked in that language, issue 40 item
 * 13: Lao names, methods without gateway codes), else the Thai name for Thai readers and the English one otherwise.
 */
export function bankDisplayName(bank: { nameTH: string; nameEN: string; name?: string }, language: string): string {
  if (bank.name) return bank.name;
  return language === 'th' ? bank.nameTH || bank.nameEN : bank.nameEN || bank.nameTH;
}
