/** The players texts of the console (th, la, en). English is the reference; th and la are typed against its keys. */
const en = {} as const;

type Part = Record<keyof typeof en, string>;
const th: Part = {};
const la: Part = {};

export const playersTexts = { en, th, la };
