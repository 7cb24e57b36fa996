// Conditional requests (RFC 9110 13.1.2, issue 38): the entity tags a client holds, sent as If-None-Match. A record
// answer's tag, and the weak comparison that decides whether the client holds it (then a 304, free), are the
// lookup's (services/lookup/src/domain/entity-tags.ts): here only the header's grammar.
import type { IncomingMessage } from 'node:http';
import { badRequest } from '@pra/core/errors';

/** The request header a client sends the tags it holds in. */
export const IF_NONE_MATCH_HEADER = 'if-none-match';

/**
 * One element of the list at the sticky position: optional whitespace, an entity tag (`W/` kept apart, the opaque
 * tag with its quotes) followed by optional whitespace, then a comma or the end. An empty element (two commas) is
 * allowed, as RFC 9110 5.6.1 asks of a list's recipient. Linear: the only quantifier that can give back is the
 * leading whitespace, and nothing after it can start with a space.
 */
const ELEMENT = /[ \t]*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*)?(?:,|$)/y;

const malformed = () =>
  badRequest(
    'Invalid header \'If-None-Match\': give the ETag of an answer you received, as sent ("..."), or several separated by commas',
    'invalid_header',
  );

/**
 * The opaque tags (quotes included; a weak tag's `W/` dropped: If-None-Match compares weakly) a request's
 * If-None-Match lists, or undefined when it sends none. A value outside the grammar is a 400. `*` is refused too
 * (a 400 naming why): on a record answer it would say, for free, whether records exist, and a 304 must carry the
 * current tag (RFC 9110 15.4.5), which would hand out the tag of records the account never received.
 */
export function heldEntityTags(req: IncomingMessage): string[] | undefined {
  const raw = req.headers[IF_NONE_MATCH_HEADER];
  if (raw === undefined) return undefined;
  // node joins a repeated If-None-Match with ", " (a list either way).
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value.trim() === '*') {
    throw badRequest(
      'If-None-Match: * is not taken on a record answer (it would tell for free whether records exist): send the ETag of an answer you received, or preview=true to learn what the call would cost',
      'invalid_header',
    );
  }
  const tags: string[] = [];
  for (let at = 0; at < value.length; ) {
    ELEMENT.lastIndex = at;
    const m = ELEMENT.exec(value);
    if (!m) throw malformed();
    if (m[2] !== undefined) tags.push(m[2]);
    at = ELEMENT.lastIndex;
  }
  if (tags.length === 0) throw malformed();
  return tags;
}
