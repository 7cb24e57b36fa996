// Shutdown waits for handlers, not only for sockets: a client that hangs up closes its socket at once, while its
// handler runs on (a search, a charge) and needs the pools that shutdown closes (runServer: handlersDone).
import { describe, expect, it } from 'vitest';
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
