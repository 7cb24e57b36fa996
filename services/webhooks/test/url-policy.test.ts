// Where a webhook may point: the URL as written (creation) and each address its host resolves to (delivery).
import { describe, expect, it } from 'vitest';
import { addressRefusal, validateWebhookUrl, webhookUrlProblem } from '../src/domain/url-policy.js';

const production = { allowInsecureLocal: false };
const local = { allowInsecureLocal: true };

describe('webhook URLs as written', () => {
  it('takes https URLs of public names and addresses', () => {
    expect(webhookUrlProblem('https://hooks.example.com/in?x=1', production)).toBeNull();
    expect(webhookUrlProblem('https://93.184.216.34:8443/hook', production)).toBeNull();
    expect(webhookUrlProblem('https://[2606:2800:220:1:248:1893:25c8:1946]/', production)).toBeNull();
    expect(validateWebhookUrl('https://hooks.example.com/in', production).hostname).toBe('hooks.example.com');
  });

  it('refuses http, other schemes, credentials, fragments and non-URLs, naming why', () => {
    expect(webhookUrlProblem('http://hooks.example.com/', production)).toBe('url must be https://');
    expect(webhookUrlProblem('ftp://hooks.example.com/', local)).toBe('url must be http:// or https://');
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', production)).toMatch(/user name or password/);
    expect(webhookUrlProblem('https://hooks.example.com/#x', production)).toMatch(/fragment/);
    expect(webhookUrlProblem('hooks.example.com/in', production)).toBe('url is not an absolute URL');
    expect(webhookUrlProblem(`https://a.example.com/${'x'.repeat(2100)}`, production)).toMatch(/longer than/);
    expect(() => validateWebhookUrl('http://hooks.example.com/', production)).toThrow(
      expect.objectContaining({ status: 400, reason: 'invalid_body' }),
    );
  });

  it('refuses literal private, loopback, link-local, metadata and reserved addresses, however spelt', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://127.1/',
      'https://0x7f000001/',
      'https://2130706433/',
      'https://0.0.0.0/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.1.1/',
      'https://100.64.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://224.0.0.1/',
      'https://255.255.255.255/',
      'https://[::1]/',
      'https://[::]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:169.254.169.254]/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://[fc00::1]/',
      'https://[ff02::1]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[2002:a9fe:a9fe::1]/',
      'https://[::ffff:0:a9fe:a9fe]/',
      'https://[::ffff:0:127.0.0.1]/',
    ])
      expect(webhookUrlProblem(url, production), url).toMatch(/private, loopback|not an IP/);
  });

  it('refuses names that can only be local', () => {
    for (const url of ['https://localhost/', 'https://a.localhost/', 'https://intranet/', 'https://db.internal/'])
      expect(webhookUrlProblem(url, production), url).not.toBeNull();
  });

  it('with the local setting, admits http and loopback, and still nothing private', () => {
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', local)).toBeNull();
    expect(webhookUrlProblem('http://localhost:8080/hook', local)).toBeNull();
    expect(webhookUrlProblem('http://[::1]:8080/hook', local)).toBeNull();
    expect(webhookUrlProblem('http://10.0.0.1/', local)).toMatch(/private/);
    expect(webhookUrlProblem('http://169.254.169.254/', local)).toMatch(/private/);
  });
});

describe('resolved addresses', () => {
  it('refuses every range that is not public, IPv4 and IPv6, mapped IPv4 included', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '100.100.100.200',
      '169.254.169.254',
      '0.0.0.0',
      '239.1.1.1',
      '::1',
      '::',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      'fd00:ec2::254',
      'fe80::abcd',
      'ff02::1',
    ])
      expect(addressRefusal(ip, production), ip).not.toBeNull();
    expect(addressRefusal('8.8.8.8', production)).toBeNull();
    expect(addressRefusal('2606:4700::1111', production)).toBeNull();
    expect(addressRefusal('not-an-ip', production)).toMatch(/not an IP/);
  });

  it('admits loopback only under the local setting', () => {
    expect(addressRefusal('127.0.0.1', local)).toBeNull();
    expect(addressRefusal('::1', local)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', local)).toBeNull();
    expect(addressRefusal('192.168.0.1', local)).not.toBeNull();
  });
});
