// The interactive API reference at /docs: Swagger UI from its npm package (swagger-ui-dist), served by plans with
// the document at /openapi.yaml; no CDN, no inline script (a strict Content-Security-Policy), "Try it out" with the
// Authorize button (Bearer key) against the API's own base URL.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Express, RequestHandler } from 'express';
import { REFERENCE_PAGE } from '@pra/core/contracts';

const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Property Records API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  persistAuthorization: true,
  tryItOutEnabled: false,
});
`;

function asset(contentType: string, body: string | Buffer, csp?: string): RequestHandler {
  return (req, res) => {
    res.writeHead(200, {
      'content-type': contentType,
      'x-request-id': req.requestId,
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
      ...(csp ? { 'content-security-policy': csp } : {}),
    });
    res.end(body);
  };
}

/** Mounts /docs and its assets; `apiOrigin` is where "Try it out" sends requests (the gateway), when not this one. */
export function mountReferencePage(app: Express, apiOrigin: string | null): void {
  const connect = apiOrigin ? `'self' ${apiOrigin}` : `'self'`;
  const csp = `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${connect}; frame-ancestors 'none'`;
  app.get(REFERENCE_PAGE, asset('text/html; charset=utf-8', PAGE, csp));
  app.get('/docs/init.js', asset('text/javascript; charset=utf-8', INIT));
  app.get('/docs/swagger-ui.css', asset('text/css; charset=utf-8', readFileSync(join(dist, 'swagger-ui.css'))));
  app.get(
    '/docs/swagger-ui-bundle.js',
    asset('text/javascript; charset=utf-8', readFileSync(join(dist, 'swagger-ui-bundle.js'))),
  );
}
