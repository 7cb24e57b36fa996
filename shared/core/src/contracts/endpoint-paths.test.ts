// The endpoint table's paths as the gateways and the services find them: path parameters (`/webhooks/{id}`), the
// methods of each path, and a request's path resolved to the table's.
import { describe, expect, it } from 'vitest';
import {
  BASE_PATH,
  ENDPOINTS,
  expressPath,
  methodsOf,
  pathParameters,
  pathTable,
  resolvePath,
  servedPaths,
  tablePathList,
  type EndpointDef,
  type HttpMethod,
  type ServedPath,
} from './endpoints.js';

const served = (path: string, method: HttpMethod, key = 'usage'): ServedPath => ({
  key: key as ServedPath['key'],
  endpoint: { ...(ENDPOINTS.usage as EndpointDef), path, method },
  path,
  operationId: `${method}${path}`,
  summary: path,
  method,
});

describe('path parameters', () => {
  it('are the {name} segments of a path, and express writes them :name', () => {
    expect(pathParameters('/webhooks/{id}/deliveries')).toEqual(['id']);
    expect(pathParameters('/a/{first}/b/{second}')).toEqual(['first', 'second']);
    expect(pathParameters('/usage')).toEqual([]);
    expect(expressPath('/webhooks/{id}/deliveries')).toBe('/webhooks/:id/deliveries');
    expect(expressPath('/usage')).toBe('/usage');
  });
});

describe('a path table', () => {
  const table = pathTable([
    served('/things', 'GET'),
    served('/things', 'POST'),
    served('/things/{id}', 'DELETE'),
    served('/things/{id}/parts', 'GET'),
    served('/things/special', 'GET'),
  ]);

  it('finds a path with parameters, reading them, and its methods in table order', () => {
    const found = table.resolve(`${BASE_PATH}/things/t_42`);
    expect(found?.path.template).toBe(`${BASE_PATH}/things/{id}`);
    expect(found?.params).toEqual({ id: 't_42' });
    expect(found?.path.methods).toEqual(['DELETE']);
    expect(table.resolve(`${BASE_PATH}/things/t_42/parts`)?.params).toEqual({ id: 't_42' });
    expect(table.resolve(`${BASE_PATH}/things`)?.path.methods).toEqual(['GET', 'POST']);
  });

  it('prefers a path without parameters, and takes a parameter as one whole, non-empty segment', () => {
    expect(table.resolve(`${BASE_PATH}/things/special`)?.path.template).toBe(`${BASE_PATH}/things/special`);
    expect(table.resolve(`${BASE_PATH}/things/`)).toBeUndefined();
    expect(table.resolve(`${BASE_PATH}/things/a/b`)).toBeUndefined();
    expect(table.resolve(`${BASE_PATH}/things/a/parts/x`)).toBeUndefined();
    expect(table.resolve(`${BASE_PATH}/thingsx`)).toBeUndefined();
    expect(table.resolve('/things/a')).toBeUndefined(); // below the base path only
  });

  it('refuses a table that gives one path and method twice', () => {
    expect(() => pathTable([served('/x', 'GET'), served('/x', 'GET')])).toThrow(/GET \/api\/v1\/x .* twice/);
  });
});

describe('the endpoint table', () => {
  it('resolves each of its paths (a template with its own braces) to itself, with every method it has there', () => {
    for (const p of servedPaths()) {
      const found = resolvePath(BASE_PATH + p.path);
      expect(found?.path.template, p.path).toBe(BASE_PATH + p.path);
      expect(found?.path.byMethod.get(p.method)?.operationId, p.path).toBe(p.operationId);
    }
    expect(tablePathList().length).toBe(new Set(servedPaths().map((p) => p.path)).size);
  });

  it('gives each path its methods: GET, the batch POST', () => {
    expect(methodsOf('/api/v1/property/address')).toEqual(['GET']);
    expect(methodsOf('/api/v1/property/batch')).toEqual(['POST']);
    expect(methodsOf('/api/v1/nothing')).toBeUndefined();
    expect(resolvePath('/api/v1/property/batch')?.path.byMethod.get('POST')?.endpoint.weight).toBe('batch-entries');
  });
});
