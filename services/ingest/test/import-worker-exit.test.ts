// An import worker thread that dies (here: it cannot even start) fails every request made of it afterwards, at once:
// a request posted to a dead worker was never answered, and the import hung holding its source's lock.
import { expect, it } from 'vitest';
import { workerExecutor } from '../src/importer/import-csv.js';
import type { WorkSetup } from '../src/importer/import-work.js';

it('rejects requests to a worker that has exited instead of waiting for ever', async () => {
  const executor = workerExecutor({} as WorkSetup);
  // Let the worker fail its start and exit before anything is asked of it.
  await new Promise((r) => setTimeout(r, 2_000));
  await expect(executor.parse(0, '' as never)).rejects.toBeInstanceOf(Error);
  await executor.close();
}, 20_000);
