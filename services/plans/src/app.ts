// The plans service: /plans and the generated OpenAPI document at /openapi.yaml, both public.
import type { Express } from 'express';
import { BASE_PATH, openApiYaml } from '@pra/shared/contracts';
import { createBaseApp, finishApp } from '@pra/shared/platform';
import { plansResponse } from './plans.js';

export function createPlansApp(opts: { purchaseUrl: string; publicBaseUrl: string }): Express {
  const app = createBaseApp();
  // Both bodies are constant: rendered once at start.
  const plans = JSON.stringify(plansResponse(opts.purchaseUrl));
  const yaml = openApiYaml(opts.publicBaseUrl);
  app.get(`${BASE_PATH}/plans`, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': req.requestId, 'cache-control': 'public, max-age=300' });
    res.end(plans);
  });
  for (const path of ['/openapi.yaml', `${BASE_PATH}/openapi.yaml`]) {
    app.get(path, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8', 'x-request-id': req.requestId, 'cache-control': 'public, max-age=300' });
      res.end(yaml);
    });
  }
  finishApp(app);
  return app;
}
