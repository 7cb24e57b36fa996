// The part of Kong's PDK the plugin uses (kong-pdk exposes these as async RPC calls to Kong, each a round trip over
// the pluginserver's socket: the plugin makes as few as it can). The local gateway implements the same interface
// over node:http, and the tests with a fake.
/** Request headers as Kong's kong.request.get_headers() answers them: lower-cased names, a repeated one as an array. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface KongPdk {
  request: {
    /** Every header of the request in one call (Kong's default limit: 100 headers). */
    get_headers(): Promise<RequestHeaders>;
    get_method(): Promise<string>;
    get_path(): Promise<string>;
    /** The query string as sent, without the `?` ('' when there is none). */
    get_raw_query(): Promise<string>;
    /**
     * The body as buffered (the batch's: kong.conf's client body buffer holds the largest one); Kong's PDK answers
     * it as text or bytes, alone or with an error (nil when it did not fit in the buffer).
     */
    get_raw_body(): Promise<string | Buffer | null | [string | Buffer | null, string?]>;
  };
  response: {
    exit(status: number, body?: string, headers?: Record<string, string>): Promise<void>;
    /** Headers of the response the client gets, whether Kong or the upstream service answers (one call). */
    set_headers(headers: Record<string, string>): Promise<void>;
  };
  service: {
    request: {
      /** Sets (replaces) headers of the request to the service, in one call. */
      set_headers(headers: Record<string, string>): Promise<void>;
      clear_header(name: string): Promise<void>;
    };
  };
}
