// A request's JSON body, read whole up to a limit: empty, too long or not JSON is a 400 that says which, before any
// work is done on it (its shape is the caller's to check). The only endpoint with a body is the batch lookup.
import type { IncomingMessage } from 'node:http';
import { badRequest } from '@pra/core/errors';

/** Reads and parses the body; resolves with the parsed value, rejects with a 400 naming the problem. */
export function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (message: string) => {
      if (failed) return;
      failed = true;
      // The rest is drained, not read: the answer can still be sent on this connection.
      req.resume();
      reject(badRequest(message));
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      fail(`The body is ${declared} bytes, more than the ${limitBytes} bytes allowed`);
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limitBytes) fail(`The body is more than the ${limitBytes} bytes allowed`);
      else chunks.push(chunk);
    });
    req.on('error', () => fail('The body could not be read'));
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return fail('The body is empty: send a JSON object');
      try {
        resolve(JSON.parse(text));
      } catch (err) {
        fail(`The body is not JSON: ${(err as Error).message}`);
      }
    });
  });
}
