// The autocomplete app: GET /api/v1/property/autocomplete. Authenticated like every call, not credit-metered
// (the balance is reported unchanged); no suggestion is a 200 with an empty list.
import type { Express } from 'express';
import { ENDPOINTS, renderEnvelope } from '@pra/core/contracts';
import {
  createBaseApp,
  finishApp,
  mountEndpoints,
  parseQuery,
  resolveIdentity,
  route,
  sendJson,
  type CallerAuth,
} from '@pra/platform';
import { ApiError } from '@pra/core/errors';
import { countCalls, type CallCounter, type CreditMeter } from '@pra/account-billing/client';
import type { SearchIndex } from './domain/search-index.js';
import { suggest } from './domain/suggest.js';

export function createAutocompleteApp(deps: {
  index: SearchIndex;
  meter: CreditMeter;
  calls: CallCounter;
  auth: CallerAuth;
}): Express {
  const app = createBaseApp();
  app.use(countCalls(deps.calls));
  mountEndpoints(app, 'autocomplete', {
    autocomplete: () =>
      route(async (req, res) => {
        const who = await resolveIdentity(req, deps.auth);
        const q = parseQuery(ENDPOINTS.autocomplete.query, req.query);
        const [items, balance] = await Promise.all([
          suggest(deps.index, q),
          deps.meter.balance(who.accountId).catch(() => null),
        ]);
        // Every envelope carries credits_remaining (SPEC 2.2); while balances are being reloaded there is none to say.
        if (balance === null) {
          throw new ApiError('unavailable', 'Credit balances are being reloaded; retry shortly (type-ahead is free)');
        }
        const body = renderEnvelope(items, {
          total: items.length,
          page: 1,
          pagesize: q.limit,
          transactionId: req.requestId,
          creditsRemaining: balance,
          recordsReturned: items.length,
          truncatedByCredits: false,
        });
        sendJson(res, 200, body, req.requestId);
      }),
  });
  finishApp(app);
  return app;
}
