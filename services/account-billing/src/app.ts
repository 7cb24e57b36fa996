// The account-billing app: GET /api/v1/usage and /api/v1/webhooks (issue 38) for the calling account; and, for the
// gateways only (signed with the gateway's key, on a path no gateway route leads to), the key lookup of keys their
// cache does not hold.
import type { Express } from 'express';
import {
  createBaseApp,
  finishApp,
  mountEndpoints,
  resolveIdentity,
  route,
  sendJson,
  type CallerAuth,
  type Pool,
  type Queryable,
} from '@pra/platform';
import { BASE_PATH, type UsageResponse } from '@pra/core/contracts';
import type { UrlPolicy } from '@pra/webhooks/url-policy';
import { usageReport } from './domain/usage-report.js';
import { mountKeyLookup } from './routes/key-lookup.js';
import { webhookHandlers } from './routes/webhook-routes.js';
import type { KeyLookupService } from './domain/key-lookup.js';
import { type CallCounter, countCalls } from './client/call-counter.js';

/** What createBillingApp's keyLookup is made of (the in-process system and the tests make one). */
export { KEY_LOOKUP_LIMITS, KeyLookupService } from './domain/key-lookup.js';

export function createBillingApp(deps: {
  pool: Pool;
  /** Where /usage reads (the replica, when there is one); the pool by default. */
  reads?: Queryable;
  auth: CallerAuth;
  /** The key lookup; served only with the gateway's key (it authenticates the callers). */
  keyLookup?: KeyLookupService;
  /**
   * Where the webhook calls are counted for /usage (they count for the rate limit and the daily quota, as any call);
   * without it (tests of /usage and of the key lookup) they are not counted.
   */
  calls?: CallCounter;
  /** Where a webhook may point: https to public addresses by default (WEBHOOKS_ALLOW_INSECURE_LOCAL widens it). */
  webhookUrls?: UrlPolicy;
}): Express {
  const app = createBaseApp();
  // /usage is outside the rate limit and the quota, so it bounds its own cost: the calls of one account that arrive
  // while its report is being read share that report (one report at a time per account, however many are sent; a
  // call after it is answered reads afresh). Entries leave the map when their report is done.
  const reading = new Map<number, Promise<UsageResponse>>();
  const reportOf = (accountId: number) => {
    const inFlight = reading.get(accountId);
    if (inFlight) return inFlight;
    const report = usageReport(deps.reads ?? deps.pool, accountId).finally(() => reading.delete(accountId));
    reading.set(accountId, report);
    return report;
  };
  // A call to /usage counts nowhere: it is outside the rate limit and the daily quota (it answers an account at its
  // quota), and /usage's calls count what the quota counts. The webhook calls count there, as any other call.
  if (deps.calls) app.use(`${BASE_PATH}/webhooks`, countCalls(deps.calls));
  if (deps.keyLookup && 'gatewayKey' in deps.auth) mountKeyLookup(app, deps.keyLookup, deps.auth.gatewayKey);
  mountEndpoints(app, 'account-billing', {
    ...webhookHandlers({ pool: deps.pool, auth: deps.auth, urls: deps.webhookUrls ?? { allowInsecureLocal: false } }),
    usage: () =>
      route(async (req, res) => {
        const who = await resolveIdentity(req, deps.auth);
        sendJson(res, 200, JSON.stringify(await reportOf(who.accountId)), req.requestId);
      }),
  });
  finishApp(app);
  return app;
}
