// A request's body, read whole up to a limit (the local gateway's buffering, the batch lookup's JSON): empty, too
// long or not JSON is a 400 that says which, before any work is done on it (its shape is the caller's to check).
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { nestsPast } from '@pra/core/contracts';
import { badRequest } from '@pra/core/errors';
import { bytes, counted } from '@pra/core/wording';

/**
 * The body, or `{ over }` once it passes `limitBytes` (declared or sent): the rest is drained, not kept, so that the
 * answer can still be sent on the connection. Rejects when the client breaks off.
 */
export function readBodyUpTo(
  req: IncomingMessage,
  limitBytes: number,
): Promise<{ body: Buffer } | { over: number | 'sent' }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      req.resume();
      resolve({ over: declared });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => resolve(size > limitBytes ? { over: 'sent' } : { body: Buffer.concat(chunks) }));
  });
}

/**
 * Reads and parses the body; resolves with the parsed value, rejects with a 400 naming the problem. `maxDepth`: a
 * body nesting deeper is refused before it is parsed (256 KB of nested arrays takes JSON.parse ~100 ms).
 */
export async function readJsonBody(req: IncomingMessage, limitBytes: number, maxDepth?: number): Promise<unknown> {
  const read = await readBodyUpTo(req, limitBytes).catch(() => {
    throw badRequest('The body could not be read', 'invalid_body');
  });
  if ('over' in read) {
    throw badRequest(
      read.over === 'sent'
        ? `The body is more than the ${bytes(limitBytes)} allowed`
        : `The body is ${counted(read.over, 'byte')}, more than the ${bytes(limitBytes)} allowed`,
      'invalid_body',
    );
  }
  const text = read.body.toString('utf8');
  if (text.trim() === '') throw badRequest('The body is empty: send a JSON object', 'invalid_body');
  if (maxDepth !== undefined && nestsPast(text, maxDepth))
    throw badRequest(`The body nests deeper than ${maxDepth} levels of arrays and objects`, 'invalid_body');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`The body is not JSON: ${(err as Error).message}`, 'invalid_body');
  }
}

/** Where a problem is in a body: `filter.ids[3]`, or "the body" at its top. */
function fieldName(path: readonly PropertyKey[]): string {
  const name = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');
  return name === '' ? 'the body' : `'${name}'`;
}

/** The value at a path of a body (undefined where it is missing). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

function describeBodyIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const at = (extra: PropertyKey[] = []) => fieldName([...issue.path, ...extra]);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => at([k])).join(', ');
    return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
  }
  if (issue.path.length === 0) {
    return issue.code === 'invalid_type' ? 'The body must be a JSON object' : `The body ${issue.message}`;
  }
  if (valueAt(value, issue.path) === undefined) {
    // A schema words a missing field "is required: <what it is>".
    const why = issue.message.startsWith('is required: ') ? `: ${issue.message.slice('is required: '.length)}` : '';
    return `Missing field ${at()}${why}`;
  }
  return `Invalid field ${at()}: ${issue.message}`;
}

/**
 * A JSON body checked with its zod schema (a strict object refuses fields it does not name); a failure is a 400
 * (invalid_body) naming each field that is wrong, missing or unknown: `Invalid field 'filter.zip': must be a 5-digit
 * ZIP code`, `Missing field 'url'`, `Unknown field 'secret'`.
 */
export function parseJsonBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map((issue) => describeBodyIssue(issue, value)))];
  throw badRequest(messages.join('; '), 'invalid_body');
}
