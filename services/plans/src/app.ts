// The plans service: /plans, the generated OpenAPI document at /openapi.yaml and the interactive reference at
// /docs, all public.
import type { Express, RequestHandler } from 'express';
import { DOCUMENT_PATHS, openApiYaml } from '@pra/core/contracts';
import { createBaseApp, finishApp, mountEndpoints } from '@pra/platform';
import { plansResponse } from './plans.js';
import { mountReferencePage } from './reference-page.js';

/** A constant body, rendered once at start, cacheable by clients for five minutes. */
const constant =
  (contentType: string, body: string): RequestHandler =>
  (req, res) => {
    res.writeHead(200, {
      'content-type': contentType,
      'x-request-id': req.requestId,
      'cache-control': 'public, max-age=300',
    });
    res.end(body);
  };

export function createPlansApp(opts: { purchaseUrl: string; publicBaseUrl: string }): Express {
  const app = createBaseApp();
  const plans = constant('application/json; charset=utf-8', JSON.stringify(plansResponse(opts.purchaseUrl)));
  mountEndpoints(app, 'plans', { plans: () => plans });
  const yaml = constant('application/yaml; charset=utf-8', openApiYaml(opts.publicBaseUrl));
  for (const path of DOCUMENT_PATHS.filter((p) => p.endsWith('/openapi.yaml'))) app.get(path, yaml);
  mountReferencePage(app, /^https?:\/\//.test(opts.publicBaseUrl) ? new URL(opts.publicBaseUrl).origin : null);
  finishApp(app);
  return app;
}
