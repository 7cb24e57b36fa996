// Shutdown waits for handlers, not only for sockets: a client that hangs up closes its socket at once, while its
// handler runs on (a search, a charge) and needs the pools that shutdown closes (runServer: handlersDone).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ErrorResponse } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import { createBaseApp, finishApp, handlersDone, route } from './http.js';
import { startApp } from './testing/index.js';

describe('handlersDone', () => {
  it('resolves only once every route handler has finished, though its client has hung up', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const app = createBaseApp();
    app.get(
      '/slow',
      route(async (_req, res) => {
        started();
        await gate;
        res.status(204).end();
      }),
    );
    finishApp(app);
    const server = await startApp(app);
    const client = new AbortController();
    const request = fetch(`${server.url}/slow`, { signal: client.signal }).catch(() => 'aborted');
    await running;
    client.abort();
    expect(await request).toBe('aborted');
    await server.close(); // every socket is gone now

    let done = false;
    const waiting = handlersDone().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false); // the handler still runs
    finish();
    await waiting;
    expect(done).toBe(true);
    expect(await handlersDone()).toBeUndefined(); // nothing running: at once
  });
});

describe('the one error handler', () => {
  it("answers an error it does not know 500 'internal', an ApiError with its reason, a parser's 4xx by its status", async () => {
    const app = createBaseApp();
    app.get(
      '/boom',
      route(async () => {
        throw new Error('a bug');
      }),
    );
    app.get(
      '/refused',
      route(async () => {
        throw new ApiError('over_max_credits', 'too dear');
      }),
    );
    app.get('/parser', (_req, _res, next) => next(Object.assign(new Error('entity too large'), { status: 413 })));
    const logged: unknown[] = [];
    finishApp(app, { error: (m: unknown) => logged.push(m), warn: () => {}, info: () => {} });
    const server = await startApp(app);
    try {
      const status = async (path: string) => {
        const res = await fetch(server.url + path);
        return { http: res.status, ...ErrorResponse.parse(await res.json()).status };
      };
      expect(await status('/boom')).toMatchObject({ http: 500, code: 500, reason: 'internal' });
      expect(logged).toHaveLength(1);
      expect(await status('/refused')).toMatchObject({
        http: 402,
        code: 402,
        reason: 'over_max_credits',
        msg: 'too dear',
      });
      expect(await status('/parser')).toMatchObject({ http: 413, code: 413, reason: 'payload_too_large' });
      expect(await status('/nowhere')).toMatchObject({ http: 404, reason: 'no_such_endpoint' });
    } finally {
      await server.close();
    }
  });
});

describe("requests node's parser refuses", () => {
  /** Sends raw bytes, reads until the server closes the socket (or 5 s pass). */
  const exchange = (port: number, bytes: string) =>
    new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
      setTimeout(() => socket.destroy(), 5_000);
    });
  const statusOf = (text: string) => {
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    return { line: text.slice(0, text.indexOf('\r\n')), status: ErrorResponse.parse(JSON.parse(body)).status };
  };

  it('answers each with an ErrorResponse and its reason: 400 malformed_request, 431 request_line_too_long, 408 request_timeout', async () => {
    const app = createBaseApp();
    finishApp(app);
    const server = await startApp(app, { headersTimeoutMs: 500, requestTimeoutMs: 500 });
    const port = Number(new URL(server.url).port);
    try {
      expect(statusOf(await exchange(port, 'NOT HTTP AT ALL\r\n\r\n'))).toMatchObject({
        line: 'HTTP/1.1 400 Bad Request',
        status: { code: 400, reason: 'malformed_request' },
      });
      const long = `GET /api/v1/health?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`;
      expect(statusOf(await exchange(port, long))).toMatchObject({
        line: 'HTTP/1.1 431 Request Header Fields Too Large',
        status: { code: 431, reason: 'request_line_too_long' },
      });
      expect(statusOf(await exchange(port, 'GET /api/v1/health HTTP/1.1\r\nHost: a\r\nX-Slow: '))).toMatchObject({
        line: 'HTTP/1.1 408 Request Timeout',
        status: { code: 408, reason: 'request_timeout' },
      });
    } finally {
      await server.close();
    }
  });
});
