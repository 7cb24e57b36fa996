// Every JSON response a test receives through fetch from /api/v1 is checked against the OpenAPI document as the
// plans service serves it (/openapi.yaml, fetched once by the global setup), not against the zod schemas it is
// generated from: the status must be declared for the path, and the body must match its schema (a 304, which has
// none, must be declared without one). A response that does not fails the test that received it, naming the path,
// the status and what differs. Paths outside the document (the catch-all 404) must still be an ErrorResponse.
// Requests made over raw sockets (the edge fuzz) are not seen.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { inject } from 'vitest';
import { parse } from 'yaml';
import type {} from '@pra/platform/testing';

const BASE = '/api/v1';
const document = parse(inject('servedOpenApi')) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};
const ajv = new Ajv({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema(document as object, 'served');

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();
function validator(path: string, method: string, status: string): ValidateFunction {
  const ref = `served#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`;
  let v = validators.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: ref });
    validators.set(ref, v);
  }
  return v;
}
const errorResponse = ajv.compile({ $ref: 'served#/components/schemas/ErrorResponse' });

export class ServedDocumentMismatch extends Error {}

/** The document's paths with parameters (`/webhooks/{id}`), as patterns of a path's segments. */
const templated = Object.keys(document.paths)
  .filter((p) => p.includes('{'))
  .map((p) => ({ path: p, pattern: new RegExp(`^${p.replace(/\{[^/}]+\}/g, '[^/]+')}$`) }));
/** The document's path a request's path is: itself, or the one with parameters it fills. */
const documentPath = (path: string) =>
  document.paths[path] ? path : (templated.find((t) => t.pattern.test(path))?.path ?? path);

function check(method: string, requested: string, status: number, body: unknown): void {
  const path = documentPath(requested);
  const op = document.paths[path]?.[method.toLowerCase()];
  if (!op) {
    if (status >= 400 && !errorResponse(body)) {
      throw new ServedDocumentMismatch(`${method} ${BASE}${path} ${status}: not an ErrorResponse`);
    }
    return;
  }
  const declared = op.responses[String(status)];
  if (!declared?.content?.['application/json']) {
    throw new ServedDocumentMismatch(
      `${method} ${BASE}${path} answered ${status}, which the served OpenAPI document does not declare (declared: ${Object.keys(op.responses).join(', ')})`,
    );
  }
  const v = validator(path, method.toLowerCase(), String(status));
  if (!v(body)) {
    throw new ServedDocumentMismatch(
      `${method} ${BASE}${path} ${status}: the body does not match the served OpenAPI document: ${ajv.errorsText(v.errors, { separator: '; ' })}`,
    );
  }
}

function checkNotModified(method: string, path: string): void {
  const declared = document.paths[path]?.[method.toLowerCase()]?.responses['304'];
  if (!declared || declared.content) {
    throw new ServedDocumentMismatch(
      `${method} ${BASE}${path} answered 304, which the served OpenAPI document does not declare without content`,
    );
  }
}

const realFetch = globalThis.fetch;
globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  const res = await realFetch(input, init);
  const request = input instanceof Request ? input : null;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const url = new URL(request ? request.url : String(input));
  const json = (res.headers.get('content-type') ?? '').includes('application/json');
  // A 304 (issue 38: a held ETag) has no body: it must be declared for its path all the same, without content.
  if (res.status === 304 && url.pathname.startsWith(`${BASE}/`))
    checkNotModified(method, url.pathname.slice(BASE.length));
  if (method !== 'HEAD' && json && url.pathname.startsWith(`${BASE}/`)) {
    const text = await res.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ServedDocumentMismatch(
        `${method} ${url.pathname} ${res.status}: the body is not JSON: ${text.slice(0, 200)}`,
      );
    }
    check(method, url.pathname.slice(BASE.length), res.status, body);
  }
  return res;
};
