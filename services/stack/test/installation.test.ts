// What npm start sets up once per installation: its secrets, and the marketplace secret handed to the gateway.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installationSecrets } from '../src/installation-secrets.js';
import { systemProcesses } from '../src/system.js';

describe('installation secrets', () => {
  it('are made once, kept private, and the same on the next start', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'pra-secrets-')), '.data');
    const first = installationSecrets(dir);
    expect(first.marketplaceSecret.length).toBeGreaterThanOrEqual(16); // the plugin's minimum
    expect(new Set(Object.values(first)).size).toBe(3);
    expect(installationSecrets(dir)).toEqual(first);
    expect(statSync(join(dir, 'marketplace-proxy-secret')).mode & 0o777).toBe(0o600);
  });

  it("reach the gateway's environment (and only the gateway's) as MARKETPLACE_PROXY_SECRET", () => {
    const specs = systemProcesses({
      ports: { gateway: 1, lookup: 2, autocomplete: 3, billing: 4, plans: 5, admin: 6 },
      firstInternalPort: 0,
      databaseUrl: 'postgres://x',
      redisUrl: 'redis://x',
      redisPrefix: 'p:',
      gatewayKey: 'g'.repeat(32),
      adminToken: 'a'.repeat(32),
      marketplaceSecret: 'mkt_0123456789abcdef',
      publicBaseUrl: 'http://x/api/v1',
    });
    const holders = specs.filter((s) => s.env.MARKETPLACE_PROXY_SECRET !== undefined).map((s) => s.name);
    expect(holders).toEqual(['gateway']);
    expect(specs.find((s) => s.name === 'gateway')!.env.MARKETPLACE_PROXY_SECRET).toBe('mkt_0123456789abcdef');
  });
});
