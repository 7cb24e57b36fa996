// The framework's ceiling: express 5 answering a constant JSON, configured like our services.
import { createBaseApp, sendJson } from '@pra/platform';

const body = JSON.stringify({ property: [], status: { code: 0, msg: 'SuccessWithResult', total: 0 } });
const app = createBaseApp();
app.get('/ping', (req, res) => sendJson(res, 200, body, req.requestId));
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 }));
});
