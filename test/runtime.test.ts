// What runs on which Node. npm itself may run on an older system Node; every npm script (tests, benchmarks,
// npm start) runs on the Node that `npm ci` installs: the `node` package, a pinned dev dependency, whose binary
// npm puts first on the scripts' PATH. The images are built on the same version.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const pinned = manifest.devDependencies.node ?? '';

describe('the runtime', () => {
  it('pins one exact Node 24 release as a dev dependency', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    // engines names the line the project runs on, and the pinned release satisfies it.
    const floor = /^>=(\d+)\.(\d+)$/.exec(manifest.engines.node);
    expect(floor, `engines.node is ${manifest.engines.node}`).not.toBeNull();
    const [major, minor] = pinned.split('.').map(Number);
    expect(major).toBe(Number(floor![1]));
    expect(minor).toBeGreaterThanOrEqual(Number(floor![2]));
  });

  it('runs the tests on the pinned Node, whatever the system Node is', () => {
    expect(process.versions.node).toBe(pinned);
  });

  it.each(['Dockerfile', 'gateway/kong/Dockerfile'])('%s builds on the official image of the same release', (file) => {
    const nodeImages = [...readFileSync(`${root}${file}`, 'utf8').matchAll(/^FROM (node:\S+)/gm)].map((m) => m[1]);
    expect(nodeImages.length).toBeGreaterThan(0);
    for (const image of nodeImages) expect(image).toBe(`node:${pinned}-bookworm-slim`);
  });

  it('types the Node APIs of the same major', () => {
    expect(manifest.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${pinned.split('.')[0]}\\.`));
  });
});
