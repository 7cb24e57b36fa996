// Where a webhook may point (server-side request forgery): https only, and never at an address inside a network
// (private, loopback, link-local, carrier-grade NAT, cloud metadata, unspecified, multicast, reserved; IPv4 and IPv6,
// IPv4 embedded in IPv6 included). Checked twice: at creation on the URL as written (scheme, syntax, a literal IP),
// and at every delivery on the addresses its host resolves to then (a name that resolved to a public address at
// creation may resolve to 10.0.0.1 now: DNS rebinding); the sender then connects to the address it checked.
// `allowInsecureLocal` (WEBHOOKS_ALLOW_INSECURE_LOCAL: npm start and the tests, a system on one machine) admits
// http and loopback addresses, nothing else.
import { BlockList, isIP } from 'node:net';
import { ApiError } from '@pra/core/errors';
import { WEBHOOK_URL_MAX } from './webhook.js';

export interface UrlPolicy {
  /** http:// and loopback addresses (127.0.0.0/8, ::1) allowed: a local system only. */
  allowInsecureLocal: boolean;
}

function blockList(entries: readonly [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix, type] of entries) list.addSubnet(net, prefix, type);
  return list;
}

const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);

/** Whether an IP address is this machine's (127.0.0.0/8, ::1, or either mapped): where plain http may go. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Never a webhook's address (loopback aside, which the local setting admits). */
const REFUSED = blockList([
  ['0.0.0.0', 8, 'ipv4'], // "this network", unspecified
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (also Alibaba's metadata, 100.100.100.200)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments (Oracle's metadata 192.0.0.192)
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT, RFC 2765): a stateless translator reaches the IPv4 address
  ['64:ff9b::', 96, 'ipv6'], // NAT64: reaches IPv4 addresses through a translator
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard
  ['2001::', 32, 'ipv6'], // Teredo
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4: embeds an IPv4 address
  ['fc00::', 7, 'ipv6'], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
]);

/** Why a webhook may not be delivered to this IP address, or null when it may. */
export function addressRefusal(address: string, policy: UrlPolicy): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return `${address} is not an IP address`;
  // BlockList matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 subnets too.
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowInsecureLocal && LOOPBACK.check(bare, type)) return null;
  if (REFUSED.check(bare, type))
    return `${address} is in a private, loopback, link-local, metadata or reserved range: webhooks are only sent to public addresses`;
  return null;
}

/** Why this URL cannot be a webhook's (scheme, syntax, credentials, a refused literal address), or null. */
export function webhookUrlProblem(raw: string, policy: UrlPolicy): string | null {
  if (raw.length > WEBHOOK_URL_MAX) return `url is longer than ${WEBHOOK_URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecureLocal && url.protocol === 'http:'))
    return policy.allowInsecureLocal ? 'url must be http:// or https://' : 'url must be https://';
  if (url.username || url.password) return 'url must not carry a user name or password';
  if (url.hash) return 'url must not have a #fragment';
  const host = url.hostname;
  if (!host) return 'url has no host';
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const name = host.toLowerCase().replace(/\.$/, '');
  const family = isIP(literal);
  if (family !== 0) {
    const refusal = addressRefusal(literal, policy);
    if (refusal) return `url: ${refusal}`;
  } else if (name === 'localhost' || name.endsWith('.localhost')) {
    // A name: it must look like a DNS name with a dot (no "intranet", no "localhost" outside the local setting);
    // where it points is checked at every delivery, after resolving it.
    if (!policy.allowInsecureLocal) return `url: ${host} is local`;
  } else {
    if (!name.includes('.')) return `url: ${host} is not a public host name`;
    if (/\.(local|internal|localdomain|home\.arpa)$/.test(name)) return `url: ${host} is not a public host name`;
  }
  // Plain http (the local setting) only to this machine: anywhere else the payload would cross a network in the clear.
  const loopback =
    family === 0
      ? name === 'localhost' || name.endsWith('.localhost')
      : LOOPBACK.check(literal, family === 4 ? 'ipv4' : 'ipv6');
  if (url.protocol === 'http:' && !loopback)
    return 'url must be https:// (http:// is taken only for a loopback address: 127.0.0.1, [::1], localhost)';
  return null;
}

/** The URL of a new webhook, or a 400 (invalid_body) naming what is wrong with it. */
export function validateWebhookUrl(raw: string, policy: UrlPolicy): URL {
  const problem = webhookUrlProblem(raw, policy);
  if (problem) throw new ApiError('invalid_body', problem);
  return new URL(raw);
}
