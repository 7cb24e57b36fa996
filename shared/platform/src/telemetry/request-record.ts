// One log line and one metric sample per request, the same for every service and the local gateway. The route is
// the matched pattern (never the raw URL), and the line holds no query string or header: queries carry names and
// addresses, headers carry keys.
import { requestLogger } from './logger.js';
import { telemetryMetrics } from './metrics.js';

export interface RequestRecord {
  requestId: unknown;
  method: string;
  route: string;
  status: number;
  ms: number;
  accountId?: number;
  tier?: string;
  /** The service a gateway forwarded to. */
  upstream?: string;
}

export function recordRequest(r: RequestRecord): void {
  telemetryMetrics.request(r.ms / 1000, { method: r.method, route: r.route, status: r.status });
  if (!requestLogger.isLevelEnabled('info')) return;
  requestLogger.info({ ...r, ms: Math.round(r.ms * 100) / 100 }, 'request');
}
