// An account's own limits as an operator writes them (npm run admin -- set-limits): read before any store is
// reached, so a mistake is named at once.
import { ApiError } from '@pra/core/errors';

/** The largest limit a column holds (PostgreSQL's integer). */
export const MAX_LIMIT = 2_147_483_647;

/**
 * A limit flag's text: a whole number from 1 to MAX_LIMIT; `default`, the tier's (null); left out, as it is
 * (undefined). `none` is refused: it read as "no limit", and kept the tier's.
 */
export function parseLimit(flag: string, text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === 'default') return null;
  if (/^\d{1,10}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_LIMIT) return Number(text);
  const none = text === 'none' ? ` ('none' is not "no limit": an account's limit is a number or the tier's)` : '';
  throw new ApiError(
    'invalid_parameter',
    `--${flag} must be a whole number from 1 to ${MAX_LIMIT}, or default (the tier's), not '${text}'${none}`,
  );
}
