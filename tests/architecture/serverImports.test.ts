/**
 * The server's imports run one way (D204): server/layers.json orders every folder of server/ (and
 * every file at its root) from the composition roots down through the features to the shared
 * infrastructure; an import may only point down that list, so the folder graph has no loop, the
 * infrastructure imports no feature and no composition root, and no two files import each other
 * through a loop.
 */
import { describe, expect, it } from 'vitest';
import layers from '#server/layers.json';
import slices from '#server/slices.json';
import {
  cycles,
  fileGraph,
  folderArrows,
  folderOf,
  loopThrough,
  serverSources,
} from './serverImportGraph';

/** Every node of the folder graph, top first: an import may point only further down. */
const ORDER: readonly string[] = [
  ...layers.compositionRoots,
  ...layers.features,
  ...layers.infrastructure,
];
const rank = (node: string) => ORDER.indexOf(node);

describe("the server's imports run one way (D204)", () => {
  const files = fileGraph(serverSources());
  const arrows = folderArrows(files);
  const backArrows = [...arrows.keys()].filter((arrow) => {
    const [from, to] = arrow.split(' -> ') as [string, string];
    return rank(from) >= rank(to);
  });

  it('reads the files and the arrows it checks', () => {
    expect(files.get('server/app.ts')).toEqual(
      expect.arrayContaining(['server/account/index.ts', 'server/http/context.ts']),
    );
    expect(arrows.size).toBeGreaterThan(100);
  });

  it('places every folder and root file of server/ in server/layers.json, once', () => {
    const nodes = [...new Set([...files.keys()].map(folderOf))].sort();
    expect([...ORDER].sort()).toEqual(nodes);
    expect(new Set(ORDER).size).toBe(ORDER.length);
  });

  it('counts every slice of server/slices.json as a feature', () => {
    expect(layers.features).toEqual(expect.arrayContaining(slices));
  });

  it('lets the infrastructure import no feature and no composition root', () => {
    const infrastructure = new Set(layers.infrastructure);
    const upward = backArrows.filter((arrow) => {
      const [from, to] = arrow.split(' -> ') as [string, string];
      return infrastructure.has(from) && !infrastructure.has(to);
    });
    expect(upward).toEqual([]);
  });

  it('has no folder-level arrow running back up the layers', () => {
    expect(backArrows.map((arrow) => ({ arrow, imports: arrows.get(arrow) }))).toEqual([]);
  });

  it('has no loop of files', () => {
    const [largest = []] = cycles(files);
    expect(largest, loopThrough(largest, files).join('\n  -> ')).toEqual([]);
  });
});
