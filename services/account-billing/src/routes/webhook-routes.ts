// /webhooks (issue 38): the calling account's webhook endpoints. Thin: who calls, the request read with the endpoint
// table's schemas, @pra/webhooks does the rest (every read and change scoped to the account, so another account's
// webhook is "not found" like one that never was), the answer written. Free: nothing here charges or reads credits.
// Everything reads the primary: a webhook just created is in the list that follows.
import type { RequestHandler } from 'express';
import {
  CreateWebhookRequest,
  type CreateWebhookResponse,
  DeliveriesQuery,
  RotateWebhookSecretQuery,
  type RotateWebhookSecretResponse,
  WEBHOOK_BODY_MAX_BYTES,
  WebhookIdParams,
  type WebhookListResponse,
  type WebhookResponse,
  WEBHOOKS_PER_ACCOUNT_MAX,
  type WebhookTestResponse,
} from '@pra/core/contracts';
import { notFound } from '@pra/core/errors';
import {
  type CallerAuth,
  type EndpointHandlers,
  parseJsonBody,
  parseQuery,
  idempotencyKeyOf,
  type Pool,
  readJsonBody,
  resolveIdentity,
  route,
  sendEmpty,
  sendJson,
} from '@pra/platform';
import { requestFingerprint } from '../client/credit-meter.js';
import { listDeliveries } from '@pra/webhooks/deliveries';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  enqueueTestDelivery,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
} from '@pra/webhooks/registry';
import { type UrlPolicy, validateWebhookUrl } from '@pra/webhooks/url-policy';
import { deliveriesView, filterToStore, webhookView } from './webhook-views.js';

export interface WebhookRouteDeps {
  pool: Pool;
  auth: CallerAuth;
  /** Where a webhook may point: https to public addresses; http and loopback too on a local system. */
  urls: UrlPolicy;
}

type WebhookEndpoint =
  | 'createWebhook'
  | 'listWebhooks'
  | 'deleteWebhook'
  | 'webhookDeliveries'
  | 'testWebhook'
  | 'enableWebhook'
  | 'rotateWebhookSecret';

/** The deepest a create body nests: {filter: {ids: [...]}}. */
const BODY_MAX_DEPTH = 4;

const noSuchWebhook = (id: string) => notFound(`No webhook ${id} on this account`);

const json = (res: Parameters<typeof sendJson>[0], status: number, body: unknown, requestId: string) =>
  sendJson(res, status, JSON.stringify(body), requestId);

/** The webhook id of the path (`/webhooks/{id}...`), checked: a 400 naming it when it cannot be an id. */
const webhookId = (params: Record<string, string | string[]>) => parseQuery(WebhookIdParams, params).id;

export function webhookHandlers(d: WebhookRouteDeps): Pick<EndpointHandlers<'account-billing'>, WebhookEndpoint> {
  const handle =
    (
      answer: (
        req: Parameters<RequestHandler>[0],
        res: Parameters<RequestHandler>[1],
        accountId: number,
      ) => Promise<void>,
    ) =>
    () =>
      route(async (req, res) => {
        const who = await resolveIdentity(req, d.auth);
        await answer(req, res, who.accountId);
      });
  return {
    createWebhook: handle(async (req, res, accountId) => {
      const key = idempotencyKeyOf(req);
      const body = parseJsonBody(CreateWebhookRequest, await readJsonBody(req, WEBHOOK_BODY_MAX_BYTES, BODY_MAX_DEPTH));
      const url = validateWebhookUrl(body.url, d.urls);
      const wanted = { accountId, url: url.href, events: body.events, filter: filterToStore(body.filter) };
      // A retry with the client's Idempotency-Key is answered with the webhook the first call made.
      const keyed = key === undefined ? undefined : { key, fingerprint: requestFingerprint(JSON.stringify(wanted)) };
      const { webhook, secret, repeated } = await createWebhook(d.pool, wanted, keyed);
      // The secret is in this answer (and a keyed retry's) and in no other.
      const answer: CreateWebhookResponse = { webhook: { ...webhookView(webhook), secret } };
      sendJson(res, 201, JSON.stringify(answer), req.requestId, repeated ? { 'idempotent-replayed': 'true' } : {});
    }),
    listWebhooks: handle(async (req, res, accountId) => {
      const webhooks = await listWebhooks(d.pool, accountId);
      const answer: WebhookListResponse = { webhooks: webhooks.map(webhookView), limit: WEBHOOKS_PER_ACCOUNT_MAX };
      json(res, 200, answer, req.requestId);
    }),
    deleteWebhook: handle(async (req, res, accountId) => {
      const id = webhookId(req.params);
      if (!(await deleteWebhook(d.pool, accountId, id))) throw noSuchWebhook(id);
      sendEmpty(res, 204, req.requestId);
    }),
    webhookDeliveries: handle(async (req, res, accountId) => {
      const id = webhookId(req.params);
      const q = parseQuery(DeliveriesQuery, req.query);
      const page = await listDeliveries(d.pool, accountId, id, {
        limit: q.pagesize,
        ...(q.cursor !== undefined ? { before: Number(q.cursor) } : {}),
      });
      if (!page) throw noSuchWebhook(id);
      json(res, 200, deliveriesView(page, q.pagesize), req.requestId);
    }),
    testWebhook: handle(async (req, res, accountId) => {
      const id = webhookId(req.params);
      const queued = await enqueueTestDelivery(d.pool, accountId, id);
      if (!queued) throw noSuchWebhook(id);
      const answer: WebhookTestResponse = { eventId: queued.eventId };
      json(res, 202, answer, req.requestId);
    }),
    rotateWebhookSecret: handle(async (req, res, accountId) => {
      const id = webhookId(req.params);
      const q = parseQuery(RotateWebhookSecretQuery, req.query);
      const rotated = await rotateWebhookSecret(d.pool, accountId, id, q.overlap_seconds);
      if (!rotated) throw noSuchWebhook(id);
      // The new secret is in this answer and in no other.
      const answer: RotateWebhookSecretResponse = {
        webhook: { ...webhookView(rotated.webhook), secret: rotated.secret },
      };
      json(res, 200, answer, req.requestId);
    }),
    enableWebhook: handle(async (req, res, accountId) => {
      const id = webhookId(req.params);
      const webhook = (await enableWebhook(d.pool, accountId, id)) ? await getWebhook(d.pool, accountId, id) : null;
      if (!webhook) throw noSuchWebhook(id);
      const answer: WebhookResponse = { webhook: webhookView(webhook) };
      json(res, 200, answer, req.requestId);
    }),
  };
}
