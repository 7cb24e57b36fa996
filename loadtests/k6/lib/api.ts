// Calls through the gateway, with the checks every response must pass whatever its status: the spec's envelope,
// status.code equal to the HTTP status, the transactionID echoed in X-Request-Id.
import http, { type RefinedResponse } from 'k6/http';
import { check } from 'k6';
import { Rate } from 'k6/metrics';
import { API } from './config.ts';

export interface Envelope {
  property?: unknown[];
  /** /owner/search (issue 37). */
  owners?: { id: number; parcelCount: number }[];
  /** /owner/detail (issue 37). */
  owner?: { id: number; parcelCount: number } | null;
  status?: {
    code: number;
    msg: string;
    total: number;
    transactionID: string;
    records_returned?: number;
    credits_remaining?: number;
  };
}

/**
 * Requests that went wrong: no answer, a 5xx, or a 400/401/403 (the scenarios send valid queries with valid keys,
 * so those mean something broke). Refusals the scenarios provoke (402, 429) and 404 are not errors.
 */
const errors = new Rate('errors');
let errorTags: () => Record<string, string> = () => ({});
/** Tags for the errors metric (the soak scenario tags each with its phase). */
export function tagErrors(tags: () => Record<string, string>): void {
  errorTags = tags;
}

/** 2xx and the refusals a scenario expects are not failures (http_req_failed); anything else is. */
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 402, 404, 429));

export function get(
  path: string,
  key: string | null,
  name: string,
  extraTags: Record<string, string> = {},
): { res: RefinedResponse<'text'>; body: Envelope } {
  const res = http.get(`${API}${path}`, {
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    tags: { name, ...extraTags },
  });
  return checked(res, name);
}

/** A POST with a JSON body (the batch), checked as every call is. */
export function post(
  path: string,
  body: unknown,
  key: string | null,
  name: string,
): { res: RefinedResponse<'text'>; body: BatchEnvelope } {
  const res = http.post(`${API}${path}`, JSON.stringify(body), {
    headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    tags: { name },
  });
  return checked(res, name);
}

export interface BatchResult {
  id: string | null;
  status: { code: number; records_returned: number };
  property: unknown[];
}

/** The batch's answer: the envelope's status, and one result per entry. */
export type BatchEnvelope = Envelope & { results?: BatchResult[] };

function checked(res: RefinedResponse<'text'>, name: string): { res: RefinedResponse<'text'>; body: BatchEnvelope } {
  let body: BatchEnvelope = {};
  try {
    body = res.json() as BatchEnvelope;
  } catch {
    // checked below
  }
  errors.add(res.status === 0 || res.status >= 500 || [400, 401, 403].includes(res.status), errorTags());
  check(
    res,
    {
      'no 5xx': (r) => r.status < 500,
      // SPEC: status.code is 0 on success, the HTTP status on an error (/usage has its own shape).
      'JSON envelope: status.code 0 on success, the HTTP status on an error': () =>
        name === 'usage'
          ? res.status !== 200 || body.status === undefined
          : body.status?.code === (res.status === 200 ? 0 : res.status),
      'X-Request-Id is the transactionID': (r) =>
        body.status === undefined || r.headers['X-Request-Id'] === body.status.transactionID,
    },
    { name },
  );
  return { res, body };
}

export const enc = encodeURIComponent;
