// npm run example:client: the typed client against a running system (npm start): one address lookup, asked again
// from the client's cache (unchanged: a 304, 0 credits), a radius search around it, an owner search paged to its end (at most 3 pages), a batch with its free cost preview, and
// /usage. The base URL and key are BASE_URL and API_KEY when set, else those of the system npm start runs here
// (.data/local-stack.json and .data/demo-api-key); it says which it uses. The lines it prints are example-lines.ts.
import { useLocalStack } from '@pra/platform/local-stack';
import {
  batchLookup,
  createPropertyRecordsClient,
  isNotModified,
  ownerPages,
  PropertyRecordsError,
} from '../src/index.js';
import { exampleLines as say } from './example-lines.js';

useLocalStack('example:client', ['api']);
const apiKey = process.env.API_KEY;
if (!apiKey) {
  console.error('No API key: run npm start first (it keeps the demo key in .data/demo-api-key), or set API_KEY.');
  process.exit(2);
}
const baseUrl = process.env.BASE_URL ?? 'http://127.0.0.1:8080/api/v1';
// `cache: true`: each answer is kept with its ETag, and the same request asked again holds it (If-None-Match).
const api = createPropertyRecordsClient({ baseUrl, apiKey, cache: true });

try {
  // 1. One address, as a client would type it; then asked again: unchanged, the API answers 304 (0 credits) and the
  // client hands back the answer it kept.
  const ask = () =>
    api.GET('/property/address', {
      params: { query: { address: '3526 High Street', city: 'Sacramento', state: 'CA' } },
    });
  const found = await ask();
  if (!found.data) throw new PropertyRecordsError(found.response.status, found.error);
  const home = found.data.property[0]!;
  console.log(say.address(home));
  const again = await ask();
  if (!again.data) throw new PropertyRecordsError(again.response.status, again.error);
  console.log(say.askedAgain(isNotModified(again.response)));

  // 2. The properties within half a mile of it, nearest first, each with its distance in miles.
  const { latitude, longitude } = home.location;
  if (latitude !== null && longitude !== null) {
    const near = await api.GET('/property/radius', {
      params: { query: { latitude, longitude, radius: 0.5, pagesize: 5 } },
    });
    if (!near.data) throw new PropertyRecordsError(near.response.status, near.error);
    const nearest = near.data.property.map((p) => ({ oneLine: p.address.oneLine, distance: p.location.distance }));
    console.log(say.radius(near.data.status.total, nearest));
  }

  // 3. An owner search, page by page.
  const lastName = process.env.OWNER ?? 'SMITH';
  let pages = 0;
  for await (const page of ownerPages(api, { lastName, state: 'CA', pagesize: 5 })) {
    pages++;
    const names = page.property.map((p) => p.owner.owner1?.fullName ?? '?');
    console.log(say.ownerPage(lastName, page.status.page, page.status.total, 5, names));
    if (pages === 3) break;
  }
  if (pages === 0) console.log(say.noOwner(lastName));

  // 4. A list of addresses in batches of up to 100 (the client chunks longer lists): first a free preview of what it
  // would cost, then the lookups, each result with how its address matched.
  const list = [
    { id: 'home', address: '3526 High Street', city: 'Sacramento', state: 'CA' },
    { id: 'typo', address: '3526 Hihg St', city: 'Sacramento', state: 'CA' },
  ];
  const cost = await api.POST('/property/batch', { params: { query: { preview: true } }, body: { requests: list } });
  if (!cost.data) throw new PropertyRecordsError(cost.response.status, cost.error);
  console.log(say.batchCost(list.length, cost.data.status.credits_required));
  const batch = await batchLookup(api, list, { idempotencyKey: `example-${Date.now()}` });
  for (const r of batch.results) console.log(say.batchResult(r));

  // 5. What this key's account has used.
  const usage = await api.GET('/usage');
  if (!usage.data) throw new PropertyRecordsError(usage.response.status, usage.error);
  console.log(say.usage(usage.data));
} catch (err) {
  if (err instanceof TypeError) {
    console.error(`Cannot reach ${baseUrl} (${err.message}): is npm start running?`);
    process.exit(1);
  }
  throw err;
}
