// npm run example:client: the typed client against a running system (npm start): one address lookup, a radius
// search around it, an owner search paged to its end (at most 3 pages), a batch with its free cost preview, and
// /usage. The key is API_KEY, or the demo key npm start keeps in .data/demo-api-key; the base URL is BASE_URL or
// http://127.0.0.1:8080/api/v1.
import { existsSync, readFileSync } from 'node:fs';
import { batchLookup, createPropertyRecordsClient, ownerPages, PropertyRecordsError } from '../src/index.js';

const keyFile = new URL('../../../.data/demo-api-key', import.meta.url);
const apiKey = process.env.API_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
if (!apiKey) {
  console.error('No API key: run npm start first (it keeps the demo key in .data/demo-api-key), or set API_KEY.');
  process.exit(2);
}
const baseUrl = process.env.BASE_URL ?? 'http://127.0.0.1:8080/api/v1';
const api = createPropertyRecordsClient({ baseUrl, apiKey });

try {
  // 1. One address, as a client would type it.
  const found = await api.GET('/property/address', {
    params: { query: { address: '3526 High Street', city: 'Sacramento', state: 'CA' } },
  });
  if (!found.data) throw new PropertyRecordsError(found.response.status, found.error);
  const home = found.data.property[0]!;
  console.log(`address: ${home.address.oneLine} (id ${home.identifier.Id}, APN ${home.identifier.apn})`);
  console.log(`  last sale ${home.sale.lastSale.date ?? '-'} for ${home.sale.lastSale.price ?? '-'}`);

  // 2. The properties within half a mile of it, nearest first, each with its distance in miles.
  const { latitude, longitude } = home.location;
  if (latitude !== null && longitude !== null) {
    const near = await api.GET('/property/radius', {
      params: { query: { latitude, longitude, radius: 0.5, pagesize: 5 } },
    });
    if (!near.data) throw new PropertyRecordsError(near.response.status, near.error);
    const list = near.data.property.map((p) => `${p.address.oneLine} (${p.location.distance} mi)`).join('; ');
    console.log(`within 0.5 mi: ${near.data.status.total} properties; nearest: ${list}`);
  }

  // 3. An owner search, page by page.
  const lastName = process.env.OWNER ?? 'SMITH';
  let pages = 0;
  for await (const page of ownerPages(api, { lastName, state: 'CA', pagesize: 5 })) {
    pages++;
    const names = page.property.map((p) => p.owner.owner1?.fullName ?? '?').join(', ');
    console.log(`owner ${lastName}, page ${page.status.page} of ${Math.ceil(page.status.total / 5)}: ${names}`);
    if (pages === 3) break;
  }
  if (pages === 0) console.log(`owner ${lastName}: none in CA`);

  // 4. A list of addresses in batches of up to 100 (the client chunks longer lists): first a free preview of what it
  // would cost, then the lookups, each result with how its address matched.
  const list = [
    { id: 'home', address: '3526 High Street', city: 'Sacramento', state: 'CA' },
    { id: 'typo', address: '3526 Hihg St', city: 'Sacramento', state: 'CA' },
  ];
  const cost = await api.POST('/property/batch', { params: { query: { preview: true } }, body: { requests: list } });
  if (!cost.data) throw new PropertyRecordsError(cost.response.status, cost.error);
  console.log(`batch: ${list.length} addresses would cost ${cost.data.status.credits_required} credits`);
  const batch = await batchLookup(api, list, { idempotencyKey: `example-${Date.now()}` });
  for (const r of batch.results) {
    console.log(
      `  ${r.id}: ${r.status.code === 0 ? `${r.property.length} record(s), ${r.match?.type}` : r.status.msg}`,
    );
  }

  // 5. What this key's account has used.
  const usage = await api.GET('/usage');
  if (!usage.data) throw new PropertyRecordsError(usage.response.status, usage.error);
  const { calls, credits } = usage.data;
  console.log(`usage: ${calls.today} calls today, ${calls.total} in all; ${credits.balance} credits left`);
} catch (err) {
  if (err instanceof TypeError) {
    console.error(`Cannot reach ${baseUrl} (${err.message}): is npm start running?`);
    process.exit(1);
  }
  throw err;
}
