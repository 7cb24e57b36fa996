// A fake of the PDK calls the plugin makes: it records what the plugin did, as Kong would apply it.
import type { KongPdk } from '../src/pdk.js';

export class FakeKong implements KongPdk {
  exited: { status: number; body: any; headers: Record<string, string> } | null = null;
  readonly upstream = new Map<string, string>();
  constructor(private readonly path: string, private readonly headers: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(headers)) this.upstream.set(k.toLowerCase(), v);
  }
  request = {
    get_header: async (name: string) => this.headers[Object.keys(this.headers).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ''],
    get_path: async () => this.path,
  };
  response = {
    exit: async (status: number, body?: string, headers: Record<string, string> = {}) => {
      this.exited = { status, body: body ? JSON.parse(body) : undefined, headers };
    },
  };
  service = {
    request: {
      set_header: async (name: string, value: string) => void this.upstream.set(name.toLowerCase(), value),
      clear_header: async (name: string) => void this.upstream.delete(name.toLowerCase()),
    },
  };
}
