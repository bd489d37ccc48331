/** `%text%` for LIKE/ILIKE with the text's own `\`, `%` and `_` escaped: a search is literal. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
