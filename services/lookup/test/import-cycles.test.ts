// The lookup's files import each other in layers (issue 35): data, then the domain (record-page.ts lowest, the
// metering rules, then the metered page and the batch), then the routes (metered-call.ts shared, the renderers, the
// handlers). A circle between two files makes either one unreadable without the other; this walks the relative
// imports of src/ and names any circle it finds.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each file's relative imports (type-only ones too: they tie the files as much for a reader). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((f) => {
      const text = readFileSync(f, 'utf8');
      const targets = [...text.matchAll(/(?:from|import) '(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
        normalize(join(dirname(f), `${m[1]}.ts`)),
      );
      return [f, targets];
    }),
  );
}

/** Every circle found by a depth-first walk, as the files in it. */
function circles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[][] = [];
  const walk = (file: string, path: string[]) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next, path);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file, []);
  return found;
}

describe("the lookup's imports", () => {
  it('form no circle', () => {
    const graph = importGraph(sourceFiles(src));
    expect(graph.size).toBeGreaterThan(10);
    const named = circles(graph).map((c) => c.map((f) => relative(src, f)).join(' -> '));
    expect(named).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    // The walk itself, on a made-up graph: a -> b -> c -> a is found.
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
