import { describe, expect, it } from 'vitest';
import {
  AddressQuery,
  AutocompleteQuery,
  buildOpenApiDocument,
  OwnerQuery,
  ParcelQuery,
  POLYGON_TEXT_MAX,
  WATCH_LIST_TEXT_MAX,
  TEXT_MAX,
} from './index.js';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as any;
  const specPaths = [
    '/property/address',
    '/property/detail',
    '/property/detailowner',
    '/property/detailmortgage',
    '/property/detailmortgageowner',
    '/sale/detail',
    '/property/owner',
    '/property/parcel',
    '/sale/history',
    '/assessment/detail',
    '/property/autocomplete',
    '/usage',
    '/health',
    '/plans',
  ];
  /** What issue 27 adds to SPEC 4. */
  const addedPaths = [
    '/property/batch',
    '/property/radius',
    '/property/area',
    '/owner/detail',
    '/owner/search',
    '/changes',
  ];
  /** Issue 38's webhooks. */
  const webhookPaths = [
    '/webhooks',
    '/webhooks/{id}',
    '/webhooks/{id}/deliveries',
    '/webhooks/{id}/test',
    '/webhooks/{id}/enable',
    '/webhooks/{id}/rotate-secret',
  ];
  it('is OpenAPI 3.0.3, version 2.0.0, with every path of SPEC 4 and those added since', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('2.0.0');
    expect(Object.keys(doc.paths).sort()).toEqual([...specPaths, ...addedPaths, ...webhookPaths].sort());
  });
  it('declares the webhooks with their methods, path parameter, success status and refusals; never a 402', () => {
    const ops = Object.fromEntries(
      webhookPaths.flatMap((p) =>
        Object.entries(doc.paths[p]).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op as any]),
      ),
    );
    expect(Object.keys(ops).sort()).toEqual([
      'DELETE /webhooks/{id}',
      'GET /webhooks',
      'GET /webhooks/{id}/deliveries',
      'POST /webhooks',
      'POST /webhooks/{id}/enable',
      'POST /webhooks/{id}/rotate-secret',
      'POST /webhooks/{id}/test',
    ]);
    const codes = (key: string) => Object.keys(ops[key].responses);
    expect(codes('POST /webhooks')).toEqual(['201', '400', '401', '403', '409', '413', '429', '503']);
    expect(ops['POST /webhooks'].requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateWebhookRequest',
    });
    expect(codes('GET /webhooks')).toEqual(['200', '401', '403', '429', '503']);
    expect(codes('DELETE /webhooks/{id}')).toEqual(['204', '400', '401', '403', '404', '429', '503']);
    expect(ops['DELETE /webhooks/{id}'].responses['204'].content).toBeUndefined();
    expect(codes('POST /webhooks/{id}/test')).toContain('202');
    for (const [key, op] of Object.entries(ops)) {
      expect(codes(key), key).not.toContain('402');
      expect(op.security, key).toEqual(doc.security);
      if (key.includes('{id}')) {
        expect(
          op.parameters.find((p: any) => p.in === 'path'),
          key,
        ).toMatchObject({ name: 'id', required: true });
        expect(op.responses['404'].description, key).toMatch(/another account's is not found either/);
      }
    }
    const deliveries = ops['GET /webhooks/{id}/deliveries'].parameters.map((p: any) => `${p.in}:${p.name}`);
    expect(deliveries).toEqual(['path:id', 'query:pagesize', 'query:cursor']);
    // The secret is in the creation's answer only.
    expect(doc.components.schemas.CreatedWebhook.allOf).toEqual([
      { $ref: '#/components/schemas/Webhook' },
      expect.objectContaining({ properties: { secret: expect.objectContaining({ type: 'string' }) } }),
    ]);
    expect(doc.components.schemas.Webhook.properties.secret).toBeUndefined();
    expect(doc.components.schemas.WebhookFilter.additionalProperties).toBe(false);
  });
  it('declares the ids int64: past 2^31 at national volume, a generator must not map them to 32 bits', () => {
    const identifier = doc.components.schemas.PropertyRecord.properties.identifier.properties;
    expect(identifier.Id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(identifier.parcelId).toMatchObject({ type: 'integer', format: 'int64' });
    expect(doc.components.schemas.Suggestion.properties.identifier.properties.Id).toMatchObject({
      type: 'integer',
      format: 'int64',
    });
  });
  it('declares every status `code` an integer (SPEC 2.2, 2.3): a generator must not make it a float', () => {
    const codes: unknown[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const o = node as Record<string, any>;
        if (o.properties?.code && o.properties?.msg) codes.push(o.properties.code);
        Object.values(o).forEach(walk);
      }
    };
    walk(doc.components.schemas);
    // Status, ErrorResponse, BatchResult and BatchResponse.
    expect(codes.length).toBeGreaterThanOrEqual(4);
    for (const code of codes) expect(code).toMatchObject({ type: 'integer' });
    expect(doc.components.schemas.Status.properties.code).toMatchObject({ type: 'integer', enum: [0] });
  });
  it('documents the 405 (a method a path does not take) and the 404 of an unknown path, which no operation can list', () => {
    expect(doc.info.description).toMatch(/405 with an `Allow` header/);
    expect(doc.info.description).toMatch(/a path not listed here is a 404/);
  });
  it('states a custom plan as custom: records nullable, a `custom` flag', () => {
    const plan = doc.components.schemas.Plan;
    expect(plan.properties.records).toMatchObject({ type: 'integer', nullable: true });
    expect(plan.properties.custom).toMatchObject({ type: 'boolean' });
    expect(plan.required).toEqual(expect.arrayContaining(['records', 'custom']));
  });
  it('declares the auth schemes, public endpoints and error responses', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'bearerAuth',
      'marketplaceKey',
      'marketplaceSecret',
      'marketplaceSubscription',
      'marketplaceUser',
    ]);
    // A marketplace subscriber (issue 27) is the third way in: the proxy's secret with its user and plan headers.
    expect(doc.security).toContainEqual({ marketplaceSecret: [], marketplaceUser: [], marketplaceSubscription: [] });
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/plans'].get.security).toEqual([]);
    for (const p of specPaths.filter((x) => x.startsWith('/property/') && x !== '/property/autocomplete')) {
      const responses = Object.keys(doc.paths[p].get.responses);
      expect(responses, p).toEqual(expect.arrayContaining(['200', '400', '401', '402', '403', '404', '429', '503']));
      expect(Object.keys(doc.paths[p].get.responses['503'].headers), p).toEqual(['Retry-After']);
      expect(Object.keys(doc.paths[p].get.responses['200'].headers), p).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
    // /usage is outside the rate limit and the quota: no 429, no RateLimit headers.
    expect(Object.keys(doc.paths['/usage'].get.responses)).toEqual(['200', '401', '403', '503']);
    expect(Object.keys(doc.paths['/usage'].get.responses['200'].headers ?? {})).not.toContain('RateLimit-Limit');
    const page = doc.paths['/property/owner'].get.parameters.find((x: any) => x.name === 'page');
    expect(page.schema).toMatchObject({ minimum: 1, maximum: 10000 });
    expect(page.description).toMatch(/page x pagesize may be at most 10,000/);
    const params = doc.paths['/property/address'].get.parameters.map((x: any) => x.name);
    expect(params).toEqual(
      expect.arrayContaining([
        'address',
        'city',
        'locality',
        'state',
        'countrySubd',
        'zip',
        'postal1',
        'number',
        'page',
        'pagesize',
      ]),
    );
  });
});

describe('query schemas', () => {
  it('applies defaults and the required combinations', () => {
    expect(AddressQuery.parse({ address: '1 Main St', zip: '95814' })).toMatchObject({ page: 1, pagesize: 25 });
    expect(AddressQuery.parse({ address: '1 Main St', city: 'Reno', state: 'nv' }).state).toBe('NV');
    expect(AddressQuery.safeParse({ address: '1 Main St', city: 'Reno' }).success).toBe(false);
    expect(AddressQuery.safeParse({ zip: '95814' }).success).toBe(false);
    expect(AddressQuery.safeParse({ address: '1 Main St', zip: '95814', pagesize: '100' }).success).toBe(true);
    expect(AddressQuery.safeParse({ address: '1 Main St', zip: '95814', pagesize: '101' }).success).toBe(false);
    expect(OwnerQuery.safeParse({}).success).toBe(false);
  });
});

describe('every text parameter has a maximum length', () => {
  const doc = buildOpenApiDocument() as any;
  it('that the OpenAPI document states for every string query parameter of every path', () => {
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const p of Object.values<any>(item).flatMap((op) => op.parameters ?? [])) {
        if (p.in !== 'query' || p.schema.type !== 'string') continue;
        expect(p.schema.maxLength, `${path} ${p.name}`).toBeGreaterThan(0);
        // A GeoJSON polygon (issue 27) is longer: 200 vertices, parsed and checked in well under a millisecond; so is
        // a change feed's watch list (issue 38): up to WATCH_LIST_MAX property ids.
        const max = p.name === 'polygon' ? POLYGON_TEXT_MAX : p.name === 'ids' ? WATCH_LIST_TEXT_MAX : 200;
        expect(p.schema.maxLength, `${path} ${p.name}`).toBeLessThanOrEqual(max);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    const address = doc.paths['/property/address'].get.parameters.find((x: any) => x.name === 'address');
    expect(address.schema.maxLength).toBe(TEXT_MAX.address);
  });

  it("says what an owner search's status.total means past the count cap", () => {
    expect(doc.paths['/property/owner'].get.description).toContain(
      '`status.total` counts at most 10,000 properties: 10,000 means that many or more',
    );
  });

  const long = (n: number) => 'A'.repeat(n);
  it.each([
    ['address', AddressQuery, { address: long(TEXT_MAX.address + 1), zip: '95814' }, TEXT_MAX.address],
    ['city', AddressQuery, { address: '1 Main St', city: long(TEXT_MAX.city + 1), state: 'CA' }, TEXT_MAX.city],
    ['locality', AddressQuery, { address: '1 Main St', locality: long(TEXT_MAX.city + 1), state: 'CA' }, TEXT_MAX.city],
    [
      'number',
      AddressQuery,
      { address: 'Main St', zip: '95814', number: '1'.repeat(TEXT_MAX.number + 1) },
      TEXT_MAX.number,
    ],
    ['lastName', OwnerQuery, { lastName: long(TEXT_MAX.lastName + 1) }, TEXT_MAX.lastName],
    ['firstName', OwnerQuery, { lastName: 'SMITH', firstName: long(TEXT_MAX.firstName + 1) }, TEXT_MAX.firstName],
    ['city', OwnerQuery, { lastName: 'SMITH', city: long(TEXT_MAX.city + 1) }, TEXT_MAX.city],
    ['apn', ParcelQuery, { apn: '1'.repeat(TEXT_MAX.apn + 1) }, TEXT_MAX.apn],
    ['county', ParcelQuery, { apn: '1', county: long(TEXT_MAX.county + 1) }, TEXT_MAX.county],
    ['q', AutocompleteQuery, { q: `1 ${long(TEXT_MAX.q)}` }, TEXT_MAX.q],
  ] as const)('%s (%#): past its maximum, refused naming the maximum', (name, schema, query, max) => {
    const result = (schema as any).safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error.issues).toContainEqual(
      expect.objectContaining({ path: [name], message: `must be at most ${max} characters` }),
    );
    // At the maximum (surrounding spaces not counted) the length is no reason to refuse.
    const atMax = { ...query, [name]: ` ${(query as any)[name].slice(0, max)} ` };
    const again = (schema as any).safeParse(atMax);
    for (const issue of again.success ? [] : again.error.issues) expect(issue.message).not.toMatch(/at most/);
  });

  it('keeps the longest real values (the labelled county spellings are at most 32 characters)', () => {
    expect(AddressQuery.safeParse({ address: '6802 RIDGE BOULEVARD, APT 1-O', zip: '11220' }).success).toBe(true);
    expect(OwnerQuery.safeParse({ lastName: 'ACME HOLDINGS LLC', city: 'Sacramento' }).success).toBe(true);
  });
});
