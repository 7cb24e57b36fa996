// The part of Kong's PDK the plugin uses (kong-pdk exposes these as async RPC calls to Kong). The local gateway
// implements the same interface over node:http, and the tests with a fake.
export interface KongPdk {
  request: {
    get_header(name: string): Promise<string | undefined | null>;
    get_path(): Promise<string>;
  };
  response: {
    exit(status: number, body?: string, headers?: Record<string, string>): Promise<void>;
  };
  service: {
    request: {
      set_header(name: string, value: string): Promise<void>;
      clear_header(name: string): Promise<void>;
    };
  };
}
