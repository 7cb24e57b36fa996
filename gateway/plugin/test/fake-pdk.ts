// A fake of the PDK calls the plugin makes: it records what the plugin did, as Kong would apply it, and every call
// (each one a round trip over the pluginserver's socket under Kong).
import type { KongPdk, RequestHeaders } from '../src/pdk.js';

export class FakeKong implements KongPdk {
  exited: { status: number; body: any; headers: Record<string, string> } | null = null;
  readonly upstream = new Map<string, string>();
  /** Headers set on the client's response. */
  readonly response_headers = new Map<string, string>();
  /** Every PDK call, in order, as Kong names it (kong.request.get_path, ...). */
  readonly calls: string[] = [];
  private readonly path: string;
  private readonly query: string;
  private readonly headers: RequestHeaders = {};
  constructor(
    target: string,
    headers: Record<string, string> = {},
    private readonly method = 'GET',
    private readonly body: string | null = null,
  ) {
    [this.path, this.query = ''] = target.split('?') as [string, string?];
    for (const [k, v] of Object.entries(headers)) {
      this.headers[k.toLowerCase()] = v;
      this.upstream.set(k.toLowerCase(), v);
    }
  }
  private call<T>(name: string, result: T): Promise<T> {
    this.calls.push(name);
    return Promise.resolve(result);
  }
  request = {
    get_headers: () => this.call('kong.request.get_headers', { ...this.headers }),
    get_method: () => this.call('kong.request.get_method', this.method),
    get_path: () => this.call('kong.request.get_path', this.path),
    get_raw_query: () => this.call('kong.request.get_raw_query', this.query),
    get_raw_body: () => this.call('kong.request.get_raw_body', this.body),
  };
  response = {
    exit: (status: number, body?: string, headers: Record<string, string> = {}) => {
      this.exited = { status, body: body ? JSON.parse(body) : undefined, headers };
      return this.call('kong.response.exit', undefined);
    },
    set_headers: (headers: Record<string, string>) => {
      for (const [k, v] of Object.entries(headers)) this.response_headers.set(k.toLowerCase(), v);
      return this.call('kong.response.set_headers', undefined);
    },
  };
  service = {
    request: {
      set_headers: (headers: Record<string, string>) => {
        for (const [k, v] of Object.entries(headers)) this.upstream.set(k.toLowerCase(), v);
        return this.call('kong.service.request.set_headers', undefined);
      },
      clear_header: (name: string) => {
        this.upstream.delete(name.toLowerCase());
        return this.call('kong.service.request.clear_header', undefined);
      },
    },
  };
}
