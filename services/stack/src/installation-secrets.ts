// The secrets of one installation of the embedded default, made once and kept beside the data (.data/, git-ignored,
// mode 0600): the admin token, the key the gateway signs identity headers with, and the marketplace proxy's secret
// (SPEC 5: the header a marketplace sends with its customers' keys).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export interface InstallationSecrets {
  adminToken: string;
  gatewayKey: string;
  marketplaceSecret: string;
}

function kept(file: string, make: () => string): string {
  if (!existsSync(file)) writeFileSync(file, `${make()}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export function installationSecrets(dataDir: string): InstallationSecrets {
  mkdirSync(dataDir, { recursive: true });
  return {
    // Prefixed: a base64url token may start with '-', which a command line would take for an option.
    adminToken: kept(`${dataDir}/admin-token`, () => `adm_${randomBytes(24).toString('base64url')}`),
    gatewayKey: kept(`${dataDir}/gateway-hmac-key`, () => randomBytes(32).toString('hex')),
    marketplaceSecret: kept(
      `${dataDir}/marketplace-proxy-secret`,
      () => `mkt_${randomBytes(24).toString('base64url')}`,
    ),
  };
}
