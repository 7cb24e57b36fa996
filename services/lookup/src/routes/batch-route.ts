// POST /property/batch: who is calling, which transaction, the body read into entries, the batch answered, sent.
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { canonicalTarget } from '@pra/core/auth';
import {
  BATCH_BODY_MAX_BYTES,
  BATCH_JSON_MAX_DEPTH,
  BATCH_ID_MAX,
  BatchBody,
  BatchEntry,
  BatchQuery,
  batchCallWeight,
  type z,
} from '@pra/core/contracts';
import { ApiError, badRequest } from '@pra/core/errors';
import { heldEntityTags, parseQuery, readJsonBody, route, sendJson } from '@pra/platform';
import type { RecordCountStore } from '../data/record-counts.js';
import { answerBatch, type BatchInput } from '../domain/batch.js';
import { findByAddress, LookupDeadline } from '../domain/find-records.js';
import type { PageSource } from '../domain/metered-page.js';
import type { WorkLane } from '../domain/work-lane.js';
import { meteredCaller, meteredRequest, type RecordRouteDeps, sendNotModified } from './metered-call.js';
import { renderBatchResponse } from './render-responses.js';

/**
 * The batch's handler; `rereads` read a repeat's paid records again (as an address page's repeat does); `free`
 * counts the entries of a preview or a max_credits check, through the free work lane.
 */
export function batchHandler(
  d: RecordRouteDeps,
  rereads: PageSource['rereads'],
  free: { counts: RecordCountStore; lane: WorkLane },
) {
  return (endpoint: string): RequestHandler =>
    route(async (req, res) => {
      const caller = await meteredCaller(req, d.auth);
      const { transactionId } = caller;
      const query = parseQuery(BatchQuery, req.query);
      // The tags the client holds (a preview returns no records: it has no tag and takes none). The batch is a read
      // sent as POST for its body: a tag it holds is answered 304 as a GET's would be, not 412 (docs/api.md).
      const held = query.preview ? undefined : heldEntityTags(req);
      // The body is read first (a slow upload holds no lane slot). A preview is then free work: parsed, counted and
      // rendered in the free work lane, one at a time per process, paced, waiting at most FREE_WORK_MAX_WAIT_MS
      // (domain/work-lane.ts), so that free batches cannot take the process from paid calls. A paid batch never waits
      // in it: its max_credits check counts outside it (a paid call, bounded by the rate limit by its entries).
      const body = await readJsonBody(req, BATCH_BODY_MAX_BYTES, BATCH_JSON_MAX_DEPTH);
      // A batch counts by its entries, as the gateway admitted it (rate limit and quota): so does its count in /usage.
      req.callWeight = batchCallWeight(body);
      const whole = query.preview ? free.lane.run.bind(free.lane) : <T>(task: () => Promise<T>) => task();
      await whole(async () => {
        const inputs = batchInputs(body);
        // One deadline for every entry's search, as for one lookup: a batch is never slower to give up than a single
        // call (the gateway's read timeout covers one lookup's deadline, then the charge).
        const deadline = new LookupDeadline(d.store.deadlineMs);
        const answer = await answerBatch(
          d.meter,
          // The whole request: its query and its entries as read (the same key with other entries is another request).
          // The entries, not the body: they are flat, while a body nested deep enough to overflow the stack of
          // JSON.stringify still parses (a 500 otherwise).
          {
            ...meteredRequest(
              caller,
              endpoint,
              `${canonicalTarget({ method: 'POST', url: req.url })} ${createHash('sha256').update(JSON.stringify(inputs)).digest('base64url')}`,
              query,
            ),
            calls: req.callWeight,
          },
          inputs,
          (q) => findByAddress(d.store, q, deadline),
          rereads,
          (q) => findByAddress(free.counts, q, deadline),
          { tags: d.tags, held },
        );
        if (answer.notModified) return sendNotModified(req, res, endpoint, answer.notModified, transactionId);
        req.charged = answer.charged;
        const headers: Record<string, string> = answer.etag ? { etag: answer.etag } : {};
        sendJson(res, 200, renderBatchResponse(answer.results, transactionId, answer.billing), transactionId, headers);
      });
    });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body's entries: the batch is a 400 when its shape is wrong; an entry that cannot be read is a 400 of its own. */
export function batchInputs(body: unknown): BatchInput[] {
  const read = BatchBody.safeParse(body);
  if (!read.success) throw badRequest(bodyProblem(read.error.issues[0]!, body), 'invalid_body');
  return read.data.requests.map((entry, i) => entryInput(entry, i));
}

/** What is wrong with the body's envelope (BatchBody's first issue), named for the client. */
function bodyProblem(issue: z.core.$ZodIssue, body: unknown): string {
  if (issue.path.length === 0) {
    if (issue.code === 'unrecognized_keys') {
      // At most ten named: a body of 256 KB may hold tens of thousands of keys.
      const names =
        issue.keys
          .slice(0, 10)
          .map((k) => `'${k.slice(0, 40)}'`)
          .join(', ') + (issue.keys.length > 10 ? ', ...' : '');
      return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${names} in the body: it takes requests`;
    }
    return 'The body must be a JSON object: {"requests": [{"address": ..., "zip": ...}]}';
  }
  const requests = isObject(body) ? body.requests : undefined;
  if (requests === undefined) return "Missing field 'requests': a list of address lookups";
  const count = Array.isArray(requests) ? ` (${requests.length} entries)` : '';
  return `Invalid field 'requests'${issue.code === 'too_big' ? count : ''}: ${issue.message}`;
}

function entryInput(entry: unknown, i: number): BatchInput {
  const where = `requests[${i}]`;
  if (!isObject(entry)) return { id: null, invalid: `Invalid ${where}: an entry must be a JSON object` };
  // A JSON number is read as its digits ("zip": 95814); anything but text and numbers is named by the schema.
  const asText = Object.fromEntries(
    Object.entries(entry).map(([k, v]) => [k, typeof v === 'number' && Number.isFinite(v) ? String(v) : v]),
  );
  const id = typeof asText.id === 'string' ? asText.id.slice(0, BATCH_ID_MAX) : null;
  try {
    const { id: _id, ...lookup } = parseQuery(BatchEntry, asText);
    return { id, lookup };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { id, invalid: `${where}: ${err.message}` };
  }
}
