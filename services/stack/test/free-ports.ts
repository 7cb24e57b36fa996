// A free port for each server of the system, for the tests that start it as processes.
import { freePort } from '@pra/platform/testing';
import type { SystemPorts } from '../src/system.js';

export async function freeSystemPorts(): Promise<SystemPorts> {
  return {
    gateway: await freePort(),
    lookup: await freePort(),
    autocomplete: await freePort(),
    billing: await freePort(),
    plans: await freePort(),
    admin: await freePort(),
  };
}
