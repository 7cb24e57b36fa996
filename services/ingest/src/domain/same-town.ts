// Whether a mailing address's city is a parcel's town: what the ZIP evidence asks of an owner mailed at the parcel
// (import-row.ts), and what absentee ownership compares where the parcel has no ZIP of its own (render-record.ts).
import { normalizeCity } from '@pra/core/address';

/**
 * The mailing city is the site's town (a street line of one town may be another town's too: Hanover's and Lebanon's):
 * the same name, or the name with a part before it (WEST LEBANON's mail is LEBANON's city). Without a site city, true
 * (the caller's other checks alone decide).
 */
export function sameTown(mailingCity: string, siteCity: string | null): boolean {
  if (!siteCity) return true;
  const town = normalizeCity(siteCity);
  const mailed = normalizeCity(mailingCity);
  return mailed === town || mailed.endsWith(` ${town}`);
}
