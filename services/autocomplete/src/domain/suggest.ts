// SPEC 4.6: suggestions for a partial address. q starts with a house number, or is a street name when zip is given.
import { splitZip } from '@pra/core/address';
import type { AutocompleteQuery } from '@pra/core/contracts';
import { badRequest } from '@pra/core/errors';
import { annotateRequest, telemetryMetrics } from '@pra/platform/telemetry';
import type { SearchIndex } from './search-index.js';
import { parseTypedQuery } from './typed-query.js';

export async function suggest(index: SearchIndex, q: AutocompleteQuery): Promise<string[]> {
  const typed = parseTypedQuery(q.q);
  if (typed.houseNumber === null && q.zip === undefined) {
    throw badRequest(
      "Invalid parameter 'q': start with a house number, or give 'zip' to search by street name",
      'invalid_parameter',
    );
  }
  if (typed.houseNumber === null && typed.streetPrefixes.length === 0) {
    throw badRequest("Invalid parameter 'q': it must contain letters or digits", 'invalid_parameter');
  }
  const started = performance.now();
  const found = await index.search(typed, {
    zip: q.zip ? splitZip(q.zip).zip5 : undefined,
    state: q.state,
    limit: q.limit,
  });
  telemetryMetrics.searched((performance.now() - started) / 1000, index.backend);
  annotateRequest({
    'pra.endpoint': '/property/autocomplete',
    'pra.records.returned': found.length,
    'pra.credits.charged': 0,
  });
  return found;
}
