// The internal admin API (JSON): accounts, keys, credit grants. Protected by the admin token; bound to its own
// port, which the gateway never routes.
import { timingSafeEqual } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import { z } from 'zod';
import { ApiError } from '@pra/core/errors';
import { route, sendJson } from '@pra/platform';
import { TIER_NAMES } from '@pra/core/tiers';
import {
  createAccount,
  findAccount,
  grantCredits,
  issueKey,
  listKeys,
  setAccountLimits,
  setKeyStatus,
  type BillingDeps,
} from '../domain/accounts.js';
import { MAX_LIMIT } from '../domain/account-limits.js';
import { usageReport } from '../domain/usage-report.js';

function requireToken(token: string): RequestHandler {
  const expected = Buffer.from(`Bearer ${token}`);
  return (req, _res, next) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      next(new ApiError('unauthorized', 'Admin token required'));
      return;
    }
    next();
  };
}

const body = <T extends z.ZodType>(schema: T, value: unknown): z.infer<T> => {
  const r = schema.safeParse(value ?? {});
  if (!r.success)
    throw new ApiError(
      'invalid_body',
      r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    );
  return r.data;
};
const id = (v: string | string[] | undefined) => {
  if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new ApiError('invalid_parameter', `'${String(v)}' is not an id`);
  return Number(v);
};

const NewAccount = z.object({ email: z.string(), name: z.string().min(1), tier: z.enum(TIER_NAMES) });
const NewKey = z.object({ kind: z.enum(['standard', 'marketplace']).default('standard') });
const NewGrant = z
  .object({
    plan: z.string().optional(),
    amount: z.number().int().positive().optional(),
    validDays: z.number().int().positive().optional(),
  })
  .refine((g) => g.plan !== undefined || g.amount !== undefined, 'give a plan or an amount');

export function mountAdminRoutes(app: Express, d: BillingDeps, token: string): void {
  const json = (res: Parameters<typeof sendJson>[0], status: number, value: unknown, requestId: string) =>
    sendJson(res, status, JSON.stringify(value), requestId);
  app.use('/admin', requireToken(token), express.json({ limit: '16kb' }));
  app.post(
    '/admin/accounts',
    route(async (req, res) => json(res, 201, await createAccount(d, body(NewAccount, req.body)), req.requestId)),
  );
  app.get(
    '/admin/accounts/:account',
    route(async (req, res) => {
      const account = await findAccount(d, String(req.params.account));
      json(
        res,
        200,
        {
          account,
          usage: await usageReport(d.pool, account.id),
          keys: await listKeys(d, account.id),
        },
        req.requestId,
      );
    }),
  );
  app.post(
    '/admin/accounts/:account/keys',
    route(async (req, res) =>
      json(res, 201, await issueKey(d, id(req.params.account), body(NewKey, req.body).kind), req.requestId),
    ),
  );
  app.get(
    '/admin/accounts/:account/keys',
    route(async (req, res) => json(res, 200, await listKeys(d, id(req.params.account)), req.requestId)),
  );
  app.post(
    '/admin/accounts/:account/grants',
    route(async (req, res) =>
      json(res, 201, await grantCredits(d, id(req.params.account), body(NewGrant, req.body)), req.requestId),
    ),
  );
  // Both limits, each a number or null (the tier's): the route sets both, where the CLI may leave one as it is.
  const Limits = z.object({
    ratePerMinute: z.number().int().positive().max(MAX_LIMIT).nullable(),
    dailyQuota: z.number().int().positive().max(MAX_LIMIT).nullable(),
  });
  app.post(
    '/admin/accounts/:account/limits',
    route(async (req, res) => {
      const limits = body(Limits, req.body);
      await setAccountLimits(d, id(req.params.account), limits);
      json(res, 200, limits, req.requestId);
    }),
  );
  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    app.post(
      `/admin/keys/:key/${action}`,
      route(async (req, res) => {
        await setKeyStatus(d, id(req.params.key), status);
        json(res, 200, { keyId: id(req.params.key), status }, req.requestId);
      }),
    );
  }
}
