import type { Row } from './types.ts';

/** A column of a statement's answer, as its RowDescription names it. */
export type RowField = { name: string; dataTypeID: number };

const BIND_COMPLETE = 0x32; // '2'
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const READY_FOR_QUERY = 0x5a; // 'Z'
const NO_DATA = 0x6e; // 'n'
const EMPTY_QUERY = 0x49; // 'I'

/**
 * The rows of one bound statement's answer read straight from PostgreSQL's wire bytes (BindComplete, DataRow…,
 * CommandComplete, ReadyForQuery), each value of text format decoded in place and given to `parse` with its type; an
 * object per row with the columns in order, as PGlite's own `parseResults` makes it. Undefined when the answer holds
 * anything else — an error, a notice — or rows without `fields`: the caller then reads it with PGlite's parser.
 *
 * PGlite's parser copies every value into an ArrayBuffer of its own before decoding it, which made reading a row
 * of twenty columns cost more than running its statement (docs/decisions/074-pglite-rows-read-in-place.md).
 */
export function readRows(
  raw: Uint8Array,
  fields: readonly RowField[] | undefined,
  parse: (text: string, type: number) => unknown,
): Row[] | undefined {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const rows: Row[] = [];
  let at = 0;
  while (at + 5 <= bytes.length) {
    const code = bytes[at] as number;
    const end = at + 1 + bytes.readUInt32BE(at + 1);
    if (end > bytes.length) return undefined;
    if (code === DATA_ROW) {
      if (!fields) return undefined;
      const count = bytes.readInt16BE(at + 5);
      if (count !== fields.length) return undefined;
      let p = at + 7;
      const row: Row = {};
      for (let i = 0; i < count; i++) {
        const f = fields[i] as RowField;
        const length = bytes.readInt32BE(p);
        p += 4;
        if (length < 0) row[f.name] = null;
        else {
          row[f.name] = parse(bytes.toString('utf8', p, p + length), f.dataTypeID);
          p += length;
        }
      }
      rows.push(row);
    } else if (code !== BIND_COMPLETE && code !== COMMAND_COMPLETE && code !== READY_FOR_QUERY && code !== NO_DATA && code !== EMPTY_QUERY)
      return undefined;
    at = end;
  }
  return at === bytes.length ? rows : undefined;
}
