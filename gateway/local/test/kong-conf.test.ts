// gateway/kong/kong.conf checked offline (no Kong here): Kong retries only after a connection error, never after a
// read timeout, and its access log carries no query string. Kong turns `nginx_proxy_*` and `nginx_http_*` lines into
// nginx directives of the proxy server block and of the http block.
import { readFileSync } from 'node:fs';
import { BATCH_BODY_MAX_BYTES, POLYGON_TEXT_MAX } from '@pra/core/contracts';
import { MAX_REQUEST_HEAD_BYTES } from '@pra/platform';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const KONG_CONF = fileURLToPath(new URL('../../kong/kong.conf', import.meta.url));
const DOCKERFILE = fileURLToPath(new URL('../../kong/Dockerfile', import.meta.url));
const KONG_VALUES = fileURLToPath(new URL('../../../charts/kong-values.yaml', import.meta.url));

/** nginx variables an access line may hold: none is the request line, the query string, an argument or a header. */
const SAFE_VARIABLES = [
  '$remote_addr',
  '$time_iso8601',
  '$time_local',
  '$request_method',
  '$uri',
  '$status',
  '$body_bytes_sent',
  '$bytes_sent',
  '$request_length',
  '$request_time',
  '$upstream_addr',
  '$upstream_status',
  '$upstream_connect_time',
  '$upstream_header_time',
  '$upstream_response_time',
  '$kong_request_id',
];

/** kong.conf's `name = value` lines (Kong's own reader: `#` starts a comment, the first `=` separates). */
function readKongConf(text = readFileSync(KONG_CONF, 'utf8')): Map<string, string> {
  const conf = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    expect(eq, `not a property: ${line}`).toBeGreaterThan(0);
    const name = line.slice(0, eq).trim();
    expect(conf.has(name), `${name} set twice`).toBe(false);
    conf.set(name, line.slice(eq + 1).trim());
  }
  return conf;
}

describe('gateway/kong/kong.conf', () => {
  const conf = readKongConf();

  it('lets every request line the services judge reach them: their 431, never nginx’s 414 in Kong’s own body', () => {
    const [count, size] = (conf.get('nginx_http_large_client_header_buffers') ?? '').split(/\s+/);
    expect(Number(count)).toBeGreaterThanOrEqual(2);
    const bytes = Number(size!.replace(/k$/, '')) * 1024;
    expect(bytes).toBeGreaterThan(MAX_REQUEST_HEAD_BYTES);
    // The longest polygon the API takes, every character percent-encoded, and the rest of the line.
    expect(bytes).toBeGreaterThanOrEqual(POLYGON_TEXT_MAX * 3 + 1024);
  });

  it("buffers the largest batch body in memory: the plugin reads it to count the batch's entries", () => {
    const size = conf.get('nginx_http_client_body_buffer_size') ?? '';
    expect(Number(size.replace(/k$/, '')) * 1024).toBeGreaterThanOrEqual(BATCH_BODY_MAX_BYTES);
  });

  it('retries a service only after a connection error, never after a timeout (a slow charged request runs once)', () => {
    // nginx's default is `error timeout`: a read timeout would send the request again.
    expect(conf.get('nginx_proxy_proxy_next_upstream')).toBe('error');
  });

  it('writes the proxy access log in a format without the query string, the request line or the Referer', () => {
    const [destination, format, ...rest] = (conf.get('proxy_access_log') ?? '').split(/\s+/);
    expect(destination).toBe('/dev/stdout');
    expect(format, 'a named format: without one Kong logs "$request", query included').toBeDefined();
    expect(rest).toEqual([]);
    const logFormat = conf.get('nginx_http_log_format') ?? '';
    expect(logFormat.startsWith(`${format} '`), 'the format the access log names is defined').toBe(true);
    // Only variables that cannot hold a query string, a header (keys) or the Referer (a page's own query string).
    const variables = logFormat.match(/\$\w+/g) ?? [];
    expect(variables.length).toBeGreaterThan(0);
    for (const v of variables) expect(SAFE_VARIABLES, v).toContain(v);
    for (const v of ['$request', '$request_uri', '$args', '$query_string', '$is_args', '$http_referer'])
      expect(variables, v).not.toContain(v);
    expect(logFormat).toMatch(/\$uri\b/); // the path, which never holds a query string
  });

  it("is not undone by the chart's Kong values (an env value overrides kong.conf)", () => {
    const values = parse(readFileSync(KONG_VALUES, 'utf8')) as { env: Record<string, string> };
    expect(values.env.proxy_access_log).toBe(conf.get('proxy_access_log'));
    for (const name of [
      'nginx_http_log_format',
      'nginx_proxy_proxy_next_upstream',
      'nginx_http_client_body_buffer_size',
    ])
      expect(values.env[name] ?? conf.get(name), name).toBe(conf.get(name));
  });

  it('is the configuration the Kong image runs with', () => {
    expect(readFileSync(DOCKERFILE, 'utf8')).toMatch(/^COPY gateway\/kong\/kong\.conf \/etc\/kong\/kong\.conf$/m);
  });
});
