// npm start's ports: --gateway-port is the gateway's (the services after it, the admin API at +10), the last start's
// are reused, and a port in use stops the start before anything runs, naming it.
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '@pra/platform/testing';
import { checkPortsFree, chooseStartPorts } from '../src/start-ports.js';

describe('npm start ports', () => {
  it('puts the gateway on the port given, the services after it and the admin API at +10, none colliding', () => {
    const { services, internal } = chooseStartPorts({ gateway: '18380', internal: '19464' });
    expect(services).toEqual({
      gateway: 18380,
      lookup: 18381,
      autocomplete: 18382,
      billing: 18383,
      plans: 18384,
      admin: 18390,
    });
    expect(internal).toEqual({
      gateway: 19464,
      lookup: 19465,
      autocomplete: 19466,
      billing: 19467,
      plans: 19468,
      'webhooks-worker': 19469,
    });
    const all = [...Object.values(services), ...Object.values(internal)];
    expect(new Set(all).size).toBe(all.length);
  });

  it('reuses the last start ports unless given, else 8080 and 9464', () => {
    expect(chooseStartPorts({}).services.gateway).toBe(8080);
    expect(chooseStartPorts({}).internal.gateway).toBe(9464);
    expect(chooseStartPorts({}, { gateway: 18380, internal: 19464 }).services.gateway).toBe(18380);
    expect(chooseStartPorts({ gateway: '28080' }, { gateway: 18380, internal: 19464 }).services).toMatchObject({
      gateway: 28080,
      lookup: 28081,
    });
    expect(() => chooseStartPorts({ gateway: 'http' })).toThrow(/--gateway-port must be a port number/);
  });

  it("refuses a port fetch() refuses to connect to, where a port given puts one of the system's", async () => {
    // --gateway-port 10070 puts the admin API at 10080, one of the Fetch standard's bad ports.
    const { services } = chooseStartPorts({ gateway: '10070' });
    expect(services.admin).toBe(10_080);
    await expect(checkPortsFree({ admin: services.admin })).rejects.toThrow(
      /Ports in the way: 10080 \(admin\) is a port fetch\(\) refuses to connect to\. .*--gateway-port N/,
    );
  });

  it('refuses a port in use, or the same port twice, naming each', async () => {
    // A reserved port (freePort): once this server lets it go, no other process's server is given it.
    const port = await freePort();
    const busy: Server = await new Promise((resolve) => {
      const s = createServer().listen(port, '127.0.0.1', () => resolve(s));
    });
    try {
      await expect(checkPortsFree({ gateway: port })).rejects.toThrow(
        new RegExp(`Ports in the way: ${port} \\(gateway\\) is in use\\. .*--gateway-port N`),
      );
      busy.close();
      await new Promise((r) => busy.once('close', r));
      await expect(checkPortsFree({ gateway: port, lookup: port })).rejects.toThrow(
        new RegExp(`${port} \\(lookup\\) is also gateway's`),
      );
      await expect(checkPortsFree({ gateway: port })).resolves.toBeUndefined();
    } finally {
      busy.close();
    }
  });
});
