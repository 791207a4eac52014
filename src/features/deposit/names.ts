/** A bank's name in the player's language: the Thai name for Thai readers, the English one otherwise. */
export function bankDisplayName(bank: { nameTH: string; nameEN: string }, language: string): string {
  return language === 'th' ? bank.nameTH || bank.nameEN : bank.nameEN || bank.nameTH;
}
