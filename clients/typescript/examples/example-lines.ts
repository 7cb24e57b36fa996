// The lines `npm run example:client` prints, one function per step, from the API's own types. Pure, so that the
// README's output block is these functions' output for the values of a real run (test/readme-blocks.test.ts).
import { count, counted } from '@pra/core/wording';
import type { components } from '../src/schema.js';

type S = components['schemas'];
type Home = Pick<S['PropertyRecord'], 'address' | 'identifier' | 'sale'>;

export const exampleLines = {
  address: (home: Home) =>
    `address: ${home.address.oneLine} (id ${home.identifier.Id}, APN ${home.identifier.apn})\n` +
    `  last sale ${home.sale.lastSale.date ?? '-'} for ${home.sale.lastSale.price ?? '-'}`,

  askedAgain: (notModified: boolean) =>
    notModified
      ? '  asked again: unchanged, answered from the cache for 0 credits (HTTP 304)'
      : '  asked again: changed since, answered anew and charged',

  radius: (total: number, nearest: { oneLine: string; distance: number | null | undefined }[]) =>
    `within 0.5 mi: ${counted(total, 'property', 'properties')}; nearest: ${nearest.map((p) => `${p.oneLine} (${p.distance} mi)`).join('; ')}`,

  ownerPage: (lastName: string, page: number, total: number, pagesize: number, names: string[]) =>
    `owner ${lastName}, page ${page} of ${Math.ceil(total / pagesize)}: ${names.join(', ')}`,

  noOwner: (lastName: string) => `owner ${lastName}: none in CA`,

  batchCost: (addresses: number, credits: number | undefined) =>
    `batch: ${counted(addresses, 'address', 'addresses')} would cost ${counted(credits ?? 0, 'credit')}`,

  batchResult: (r: Pick<S['BatchResult'], 'id' | 'status' | 'match'> & { property: unknown[] }) =>
    `  ${r.id}: ${r.status.code === 0 ? `${r.property.length} record(s), ${r.match?.type}` : r.status.msg}`,

  usage: (u: Pick<S['UsageResponse'], 'calls' | 'credits'>) =>
    `usage: ${counted(u.calls.today, 'call')} today, ${count(u.calls.total)} in all; ${counted(u.credits.balance, 'credit')} left`,
};
