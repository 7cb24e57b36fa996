// Settings from the environment the runner passes (-e NAME=value), and the fixtures it wrote.
import { SharedArray } from 'k6/data';
import type { Fixtures, Provisioned } from './types.ts';

export const BASE_URL = (__ENV.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const API = `${BASE_URL}/api/v1`;
export const RESULT_FILE = __ENV.RESULT_FILE ?? '';
export const DURATION = __ENV.DURATION ?? '';
/** Internal /metrics URLs (comma-separated) the soak scenario watches for memory growth; empty: not watched. */
export const METRICS_URLS = (__ENV.METRICS_URLS ?? '').split(',').filter(Boolean);

function required(name: string): string {
  const v = __ENV[name];
  if (!v) throw new Error(`${name} is not set: run the scenarios through \`npm run loadtest -- <scenario>\``);
  return v;
}

const fixtures: Fixtures = JSON.parse(open(required('FIXTURES')));
export const provisioned: Provisioned = JSON.parse(open(required('ACCOUNTS')));

// One copy shared by every VU.
export const addresses = new SharedArray('addresses', () => fixtures.addresses);
export const owners = new SharedArray('owners', () => fixtures.owners);
export const parcels = new SharedArray('parcels', () => fixtures.parcels);
export const propertyIds = new SharedArray('propertyIds', () => fixtures.propertyIds);
export const places = new SharedArray('places', () => fixtures.places);

export const pick = <T>(list: ArrayLike<T>): T => list[Math.floor(Math.random() * list.length)]!;
