/** A staff search as an ILIKE pattern: the text anywhere, with `%` and `_` typed by staff read as letters, not wildcards. */
export const likePattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
