// A fake of the PDK calls the plugin makes: it records what the plugin did, as Kong would apply it.
import type { KongPdk } from '../src/pdk.js';

export class FakeKong implements KongPdk {
  exited: { status: number; body: any; headers: Record<string, string> } | null = null;
  readonly upstream = new Map<string, string>();
  /** Headers set on the client's response. */
  readonly response_headers = new Map<string, string>();
  private readonly path: string;
  private readonly query: string;
  constructor(
    target: string,
    private readonly headers: Record<string, string> = {},
    private readonly method = 'GET',
  ) {
    [this.path, this.query = ''] = target.split('?') as [string, string?];
    for (const [k, v] of Object.entries(headers)) this.upstream.set(k.toLowerCase(), v);
  }
  request = {
    get_header: async (name: string) =>
      this.headers[Object.keys(this.headers).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ''],
    get_method: async () => this.method,
    get_path: async () => this.path,
    get_raw_query: async () => this.query,
  };
  response = {
    exit: async (status: number, body?: string, headers: Record<string, string> = {}) => {
      this.exited = { status, body: body ? JSON.parse(body) : undefined, headers };
    },
    set_header: async (name: string, value: string) => void this.response_headers.set(name.toLowerCase(), value),
  };
  service = {
    request: {
      set_header: async (name: string, value: string) => void this.upstream.set(name.toLowerCase(), value),
      clear_header: async (name: string) => void this.upstream.delete(name.toLowerCase()),
    },
  };
}
