// What npm start prints once the system is up: the base URL, the key, and curl commands that work. A pure function of
// what start.ts found, so that the README's "It then prints, for example" block is this function's output for the
// README's inputs (test/readme-blocks.test.ts compares them).

export interface UpBannerInput {
  records: number;
  apiKey: string;
  marketplaceSecret: string;
  marketplaceKey: string;
  /** http://127.0.0.1:<gateway port> */
  gatewayUrl: string;
  /** A synthetic address with units, and its ZIP, when the data has one. */
  unit?: { line1: string; zip: string };
  /** A synthetic property with an owner, when the data has one. */
  sample?: { id: number; apn: string; last: string; state: string };
  adminPort: number;
  /** Each process's internal port (/metrics, /livez, /readyz). */
  internal: Record<string, number>;
  trace: boolean;
  /** Where npm start keeps what it ran with (the other npm scripts read it). */
  settingsFile: string;
}

export function upBanner(o: UpBannerInput): string {
  const base = `${o.gatewayUrl}/api/v1`;
  const enc = encodeURIComponent;
  const auth = `-H "Authorization: Bearer $API_KEY"`;
  const home = `${base}/property/address?address=3526%20High%20Street&city=Sacramento&state=CA`;
  const mkt = '-H "X-Marketplace-Proxy-Secret: $MARKETPLACE_SECRET"';
  const lines = [
    `Property Records API is up: ${o.records.toLocaleString('en-US')} records.`,
    `API_KEY=${o.apiKey}`,
    `BASE_URL=${base}`,
    '',
    `  export API_KEY=${o.apiKey} BASE_URL=${base}`,
    `  curl -s ${auth} '${home}'`,
    `  curl -s ${auth} '${base}/property/detail?address=${enc('3526 HIGH ST')}&zip=95838'`,
    ...(o.unit
      ? [
          `  curl -s ${auth} '${base}/property/address?address=${enc(o.unit.line1)}&zip=${o.unit.zip}&pagesize=5'   # every unit at one address`,
        ]
      : []),
    ...(o.sample
      ? [
          `  curl -s ${auth} '${base}/property/owner?lastName=${enc(o.sample.last)}&state=${o.sample.state}&pagesize=3'`,
          `  curl -s ${auth} '${base}/property/parcel?apn=${enc(o.sample.apn)}'`,
          `  curl -s ${auth} '${base}/sale/history?id=${o.sample.id}'`,
          `  curl -s ${auth} '${base}/assessment/detail?id=${o.sample.id}'`,
        ]
      : []),
    `  curl -s ${auth} '${base}/property/radius?latitude=38.631913&longitude=-121.434879&radius=0.5&pagesize=3'`,
    `  curl -s ${auth} '${base}/property/autocomplete?q=3526%20hi&zip=95838'`,
    `  curl -s ${auth} '${base}/usage'`,
    '',
    '  # What imports changed (1 credit an event; empty until a re-import changes a record, a first load emits none),',
    '  # and webhooks that POST each change to you, signed (free; http to loopback is allowed on this machine only:',
    '  # docs/webhook-delivery.md). The secret to verify them with is in the 201, and only there.',
    `  curl -s ${auth} '${base}/changes?pagesize=5'`,
    `  curl -s ${auth} -H 'Content-Type: application/json' -d '{"url": "http://127.0.0.1:9000/hook", "events": ["property.changed"], "filter": {"zip": "95838"}}' '${base}/webhooks'`,
    `  curl -s ${auth} '${base}/webhooks'`,
    '',
    "  # The same API as a marketplace's customers call it (SPEC 5): the marketplace's secret and the customer's key",
    '  # (a marketplace key: accepted only this way, as a standard key only as Bearer).',
    `  export MARKETPLACE_SECRET=${o.marketplaceSecret} MARKETPLACE_KEY=${o.marketplaceKey}`,
    `  curl -s ${mkt} -H "X-Marketplace-Key: $MARKETPLACE_KEY" '${home}'`,
    '  # A marketplace subscriber without a key of ours: its user and plan, behind the secret (an account per user and',
    '  # plan, made on the first call; docs/api.md "Marketplace subscribers").',
    `  curl -s ${mkt} -H "X-Marketplace-User: alice-42" -H "X-Marketplace-Subscription: starter" '${home}'`,
    '',
    `  curl -s '${base}/health'`,
    `  curl -s '${base}/plans'`,
    `  curl -s '${o.gatewayUrl}/openapi.yaml'`,
    '',
    `API reference, to read and try in a browser: ${o.gatewayUrl}/docs`,
    '',
    `Everything goes through the gateway at ${o.gatewayUrl} (services refuse calls that bypass it).`,
    'A process that dies is restarted (with backoff); this console says which and why.',
    `What this start ran with (its PostgreSQL, Redis and ports) is kept in ${o.settingsFile}: npm run admin, ingest,`,
    'example:client, loadtest and the benches use it unless DATABASE_URL, REDIS_URL or BASE_URL say otherwise.',
    `Admin (internal, port ${o.adminPort}, never routed by the gateway): npm run admin -- show --account demo@example.com`,
    `Metrics (Prometheus) and probes: ${Object.entries(o.internal)
      .map(([n, p]) => `${n} http://127.0.0.1:${p}/metrics`)
      .join(', ')}`,
    `  curl -s http://127.0.0.1:${o.internal.billing}/metrics | grep pra_usage     # is billing keeping up?`,
    ...(o.trace
      ? []
      : ['Span trees: npm start -- --trace (or export OTEL_EXPORTER_OTLP_ENDPOINT to send traces to your collector)']),
    'Ctrl-C stops everything; the next npm start reuses the data, the key and these settings.',
  ];
  return lines.join('\n');
}
