// The local gateway process: GATEWAY_PORT (8080), upstreams from UPSTREAM_<SERVICE> (UPSTREAM_LOOKUP, ...), the
// plugin's settings from the environment (REDIS_URL, REDIS_PREFIX, GATEWAY_HMAC_KEY, MARKETPLACE_PROXY_SECRET).
import { z } from 'zod';
import { clientTimeouts, internalEnv, parseConfig, port, serverEnv } from '@pra/core/config';
import { redisReady, runInternalServer } from '@pra/platform';
import { logListening, logTo } from '@pra/platform/telemetry';
import { accessDepsFromEnv } from '@pra/gateway-plugin';
import { createGateway } from './gateway.js';
import { loadRoutes } from './routes.js';

const config = parseConfig(
  z.object({
    ...internalEnv,
    ...serverEnv,
    GATEWAY_PORT: port(8080),
    GATEWAY_HOST: z.string().default('127.0.0.1'),
    UPSTREAM_LOOKUP: z.string().url().optional(),
    UPSTREAM_AUTOCOMPLETE: z.string().url().optional(),
    UPSTREAM_ACCOUNT_BILLING: z.string().url().optional(),
    UPSTREAM_PLANS: z.string().url().optional(),
  }),
);
const upstreams = Object.fromEntries(
  Object.entries({
    lookup: config.UPSTREAM_LOOKUP,
    autocomplete: config.UPSTREAM_AUTOCOMPLETE,
    'account-billing': config.UPSTREAM_ACCOUNT_BILLING,
    plans: config.UPSTREAM_PLANS,
  }).filter((e): e is [string, string] => e[1] !== undefined),
);
const log = logTo();
const plugin = accessDepsFromEnv();
// Serve once Redis answers (keys and limits live there); if it does not within 10 s, serve anyway: 503 until it does.
await redisReady(plugin.redis, 10_000).catch(() => log({ msg: 'Redis not ready; answering 503 until it is' }));
const server = createGateway({ routes: loadRoutes(upstreams), plugin, log, timeouts: clientTimeouts(config) });
await runInternalServer(config);
server.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, () => {
  const a = server.address();
  logListening(
    { host: config.GATEWAY_HOST, port: typeof a === 'object' && a ? a.port : config.GATEWAY_PORT },
    'gateway listening',
  );
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
