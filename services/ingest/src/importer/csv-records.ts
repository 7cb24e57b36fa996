// Reads a delimited file record by record, with its line number and the bytes read so far. A malformed record (an
// unclosed quote, text after a closing quote, more or fewer fields than the header) is yielded as an error for its
// line, and reading goes on at the next line: one bad row never stops an import. Quoted fields may span lines.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

export type CsvItem =
  | { line: number; bytes: number; fields: Record<string, string> }
  | { line: number; bytes: number; error: string };

/**
 * A NUL character is damage, never a value: PostgreSQL stores none (a text column refuses it, jsonb its JSON escape),
 * so a NUL in a cell failed its whole batch; dropped, a zeroed stretch of a file would splice two rows into one (one
 * row's owner with the next one's surname). A record holding one is an unreadable row, reported by its line; a
 * header holding some fails the file (a UTF-16 export reads as text with a NUL after each letter).
 */
const NUL_IN_RECORD = 'the record holds a NUL character (the file is damaged there): skipped';
const nulHeader = (file: string) =>
  new Error(
    `the header row of ${file} holds NUL characters: a UTF-16 file (as some exports write), or a damaged one? ` +
      'Save it as UTF-8 (CSV UTF-8) and import it again',
  );

/** How many following lines a quoted field may take before its opening line is called unclosed. */
const MAX_CONTINUATION_LINES = 5;

/** A record's fields, or what is wrong with it; `unclosed` when a quoted field runs to the end of the text. */
type Parsed = { fields: string[] } | { error: string; unclosed?: boolean };

/**
 * The cells of a record a caller reads, by index: the others are checked as every cell is and come out empty, never
 * copied (a roll has 80 columns, a mapping reads 20 or 30, and an import's reader only the one or two that tell a
 * row's parcel).
 */
export type CellMask = readonly boolean[];

/** The cells of `columns` in a header: a column named twice is read from its last cell (as a record keyed by name). */
export function cellMask(header: readonly string[], columns: Iterable<string>): boolean[] {
  const mask = header.map(() => false);
  for (const c of columns) {
    const i = header.lastIndexOf(c);
    if (i >= 0) mask[i] = true;
  }
  return mask;
}

/** RFC 4180 fields of one record; a quote inside an unquoted field is taken as a character. */
export function parseRecord(text: string, delimiter: string, cellsRead?: CellMask): Parsed {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    const keep = cellsRead === undefined || cellsRead[fields.length] === true;
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return { error: `unclosed quote in field ${fields.length + 1}`, unclosed: true };
        if (keep) value += text.slice(j, q);
        if (text[q + 1] === '"') {
          if (keep) value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      // Spaces after a closing quote are tolerated; anything else is not.
      while (text[j] === ' ') j++;
      if (j < text.length && text[j] !== delimiter) {
        return {
          error: `the quote of field ${fields.length + 1} closes before the field ends (an unclosed or stray quote)`,
        };
      }
      fields.push(value);
      if (j >= text.length) return { fields };
      i = j + 1;
    } else {
      const d = text.indexOf(delimiter, i);
      fields.push(keep ? (d < 0 ? text.slice(i) : text.slice(i, d)) : '');
      if (d < 0) return { fields };
      i = d + 1;
    }
  }
}

/**
 * The file's lines, a chunk of the file at a time (one step of the generator a chunk, not a line: each costs a
 * promise and a turn of the event loop), with how many bytes of the file (compressed, for a .gz) were read then.
 */
async function* physicalLineChunks(file: string): AsyncGenerator<{ lines: string[]; bytes: number }> {
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let rest = '';
  const raw = createReadStream(file, { highWaterMark: 1 << 16 });
  raw.on('data', (chunk) => {
    bytes += chunk.length;
  });
  // A file that cannot be read (missing, a folder, no permission) fails the read: pipe() alone would leave the error
  // on the file stream unhandled, and it would end the whole process.
  const decoded = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  if (decoded !== raw) raw.once('error', (err) => decoded.destroy(err));
  const line = (p: string) => (p.endsWith('\r') ? p.slice(0, -1) : p);
  try {
    for await (const chunk of decoded) {
      const text = rest + decoder.write(chunk as Buffer);
      const parts = text.split('\n');
      rest = parts.pop()!;
      if (parts.length > 0) yield { lines: parts.map(line), bytes };
    }
  } catch (err) {
    throw gzipError(file, err, bytes);
  }
  rest += decoder.end();
  if (rest !== '') yield { lines: [line(rest)], bytes };
}

/**
 * zlib's own words for a .gz cut short or damaged (`unexpected end of file`, `incorrect header check`) do not name
 * the file nor say what to do: a download cut short is the usual cause.
 */
function gzipError(file: string, err: unknown, bytes: number): unknown {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return err;
  return new Error(
    `${file} is not a whole gzip file (${(err as Error).message}, ${bytes.toLocaleString('en-US')} bytes in): ` +
      'a download cut short or a damaged copy; fetch the file again (gzip -t tells whether a copy is whole)',
    { cause: err },
  );
}

/** The file's lines, and how many bytes of the file (compressed, for a .gz) were read when each was. */
async function* physicalLines(file: string): AsyncGenerator<{ text: string; bytes: number }> {
  for await (const { lines, bytes } of physicalLineChunks(file)) for (const text of lines) yield { text, bytes };
}

/** The records of `file` after its header row, as objects keyed by the header's column names (trimmed). */
export async function* readCsvRecords(file: string, delimiter: string): AsyncGenerator<CsvItem, void, undefined> {
  let header: string[] = [];
  for await (const item of readCsvValues(file, delimiter)) {
    if ('header' in item) header = item.header;
    else if ('error' in item) yield item;
    else {
      const fields: Record<string, string> = {};
      for (let i = 0; i < header.length; i++) fields[header[i]!] = item.values[i]!;
      yield { line: item.line, bytes: item.bytes, fields };
    }
  }
}

export type CsvValuesItem =
  | { header: string[] }
  | { line: number; bytes: number; values: string[] /** The record as written (its lines joined). */; text: string }
  | { line: number; bytes: number; error: string };

/**
 * The header row (trimmed column names), then the records of `file` as cells in header order (an import sends them
 * to worker threads as they are), or the error of a malformed one. `cellsRead`: the cells the caller reads of each
 * record after the header (the header is read whole).
 */
export async function* readCsvValues(
  file: string,
  delimiter: string,
  cellsRead?: CellMask,
): AsyncGenerator<CsvValuesItem, void, undefined> {
  let header: string[] | null = null;
  let lineNo = 0;
  // Lines read but not yet consumed: a record that may continue over them, or lines to re-read after a bad one.
  const pending: { text: string; bytes: number; line: number }[] = [];
  const source = physicalLineChunks(file);
  let exhausted = false;
  // Lines of the chunk read last, from `next` on; pending takes them one at a time.
  let chunk: { lines: string[]; bytes: number } = { lines: [], bytes: 0 };
  let next = 0;
  const fill = async (n: number) => {
    while (pending.length < n && !exhausted) {
      if (next < chunk.lines.length) {
        pending.push({ text: chunk.lines[next++]!, bytes: chunk.bytes, line: ++lineNo });
        continue;
      }
      const read = await source.next();
      if (read.done) exhausted = true;
      else {
        chunk = read.value;
        next = 0;
      }
    }
    return pending.length >= n;
  };
  while (await fill(1)) {
    let first = pending[0]!;
    if (first.text.trim() === '') {
      pending.shift();
      continue;
    }
    const text0 = header === null ? withoutBom(first.text) : first.text;
    if (text0 !== first.text) {
      first = { ...first, text: text0 };
      pending[0] = first;
    }
    const read = header === null ? undefined : cellsRead;
    let parsed: Parsed = parseRecord(first.text, delimiter, read);
    let used = 1;
    let joinedText = '';
    if ('error' in parsed && parsed.unclosed) {
      // A quoted field may go on over the next lines; the record must then have the header's field count.
      let accepted: Parsed | null = null;
      let acceptedText = '';
      for (let k = 2; k <= MAX_CONTINUATION_LINES + 1 && (await fill(k)); k++) {
        const joined = pending
          .slice(0, k)
          .map((l) => l.text)
          .join('\n');
        const attempt = parseRecord(joined, delimiter, read);
        if ('fields' in attempt && (header === null || attempt.fields.length === header.length)) {
          accepted = attempt;
          acceptedText = joined;
          used = k;
          break;
        }
      }
      parsed = accepted ?? parsed;
      joinedText = acceptedText;
    }
    if ('error' in parsed) {
      pending.shift(); // only the opening line is bad; the lines after it are read again as records
      yield { line: first.line, bytes: first.bytes, error: parsed.error };
      continue;
    }
    const last = pending[used - 1]!;
    pending.splice(0, used);
    const text = used === 1 ? first.text : joinedText;
    if (text.includes('\u0000')) {
      if (header === null) throw nulHeader(file);
      yield { line: first.line, bytes: last.bytes, error: NUL_IN_RECORD };
      continue;
    }
    if (header === null) {
      header = headerNames(parsed.fields);
      yield { header };
      continue;
    }
    if (parsed.fields.length !== header.length) {
      yield {
        line: first.line,
        bytes: last.bytes,
        error: `${parsed.fields.length} fields where the header has ${header.length}`,
      };
      continue;
    }
    yield { line: first.line, bytes: last.bytes, values: parsed.fields, text };
  }
}

/**
 * A header line without the UTF-8 byte-order mark that may open it (Excel's "CSV UTF-8"): taken off before the line
 * is parsed, as a quote after it would not be read as one.
 */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** A header row's cells as column names: trimmed, the first without a UTF-8 byte-order mark. */
const headerNames = (fields: readonly string[]) =>
  fields.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim());

/** The header row's column names (to check a mapping against a file before any row is read). */
export async function readHeader(file: string, delimiter: string): Promise<string[]> {
  for await (const { text } of physicalLines(file)) {
    if (text.trim() === '') continue;
    if (text.includes('\u0000')) throw nulHeader(file);
    const parsed = parseRecord(withoutBom(text), delimiter);
    if ('error' in parsed) throw new Error(`the header row of ${file} is malformed (${parsed.error})`);
    return headerNames(parsed.fields);
  }
  throw new Error(`${file} is empty`);
}
