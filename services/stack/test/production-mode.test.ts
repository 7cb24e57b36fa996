// Outside development mode a service never trusts a caller it cannot verify: without the gateway's HMAC key it
// refuses to start, saying what to set.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('production mode', () => {
  it.each([
    'services/lookup/src/server.ts',
    'services/autocomplete/src/server.ts',
    'services/account-billing/src/server.ts',
  ])('%s refuses to start without GATEWAY_HMAC_KEY', (entry) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOOKUP_PORT: '0',
      AUTOCOMPLETE_PORT: '0',
      BILLING_PORT: '0',
      ADMIN_PORT: '0',
      INTERNAL_PORT: '0',
      ADMIN_TOKEN: 'x'.repeat(24),
    };
    delete env.GATEWAY_HMAC_KEY;
    delete env.PRA_DEVELOPMENT;
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/GATEWAY_HMAC_KEY: required/);
    expect(r.stderr).toMatch(/PRA_DEVELOPMENT=1/);
  });
});
