// The part of Kong's PDK the plugin uses (kong-pdk exposes these as async RPC calls to Kong). The local gateway
// implements the same interface over node:http, and the tests with a fake.
export interface KongPdk {
  request: {
    get_header(name: string): Promise<string | undefined | null>;
    get_method(): Promise<string>;
    get_path(): Promise<string>;
    /** The query string as sent, without the `?` ('' when there is none). */
    get_raw_query(): Promise<string>;
  };
  response: {
    exit(status: number, body?: string, headers?: Record<string, string>): Promise<void>;
    /** A header of the response the client gets, whether Kong or the upstream service answers. */
    set_header(name: string, value: string): Promise<void>;
  };
  service: {
    request: {
      set_header(name: string, value: string): Promise<void>;
      clear_header(name: string): Promise<void>;
    };
  };
}
