/**
 * The import check that `pnpm test` runs (`pnpm lint:deps`, rules in `.dependency-cruiser.cjs`)
 * refuses what it is there for. Run on a copy of core's source, it passes the copy as it is,
 * and fails it once an upward import, an import cycle or a loose file at the root is planted.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const copies: string[] = [];

/** A copy of core's source, where the check runs as `pnpm lint:deps` runs it in the repo. */
function copyOfCore(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'core-floors-'));
  copies.push(dir);
  cpSync(path.join(root, 'packages/core/src'), path.join(dir, 'packages/core/src'), {
    recursive: true,
  });
  return dir;
}

/** The rules broken in `dir`, each as "rule: from -> to". */
async function check(dir: string): Promise<string[]> {
  const options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.cjs'));
  const result = await cruise(['packages/core/src'], { ...options, baseDir: dir });
  const { summary } = result.output as ICruiseResult;
  return summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`);
}

/** Appends `line` to `file` (a path under the copy's core `src`). */
function plant(dir: string, file: string, line: string): Promise<void> {
  return appendFile(path.join(dir, 'packages/core/src', file), `\n${line}\n`);
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe("core's floors", () => {
  it('pass as they are; an upward import, a cycle or a loose root file each fail the check', async () => {
    const [clean, upward, cycle, loose] = [copyOfCore(), copyOfCore(), copyOfCore(), copyOfCore()];
    // A rule that imports the façade: a floor reaching up (no cycle: nothing imports it).
    writeFileSync(
      path.join(upward, 'packages/core/src/rules/planted.ts'),
      "export { DataDriver } from '../driver/data-driver.js';\n",
    );
    // Two files of the bottom floor import each other.
    await plant(cycle, 'ports/json.ts', "import type { Store } from './store.js';");
    // A helper dropped at the root, beside the entry points.
    writeFileSync(
      path.join(loose, 'packages/core/src/helpers.ts'),
      "export { isPlainObject } from './ports/json.js';\n",
    );
    expect(await check(clean)).toEqual([]);
    expect(await check(upward)).toEqual([
      'core-rules-not-upward: packages/core/src/rules/planted.ts -> packages/core/src/driver/data-driver.ts',
    ]);
    expect(await check(cycle)).toEqual([
      'no-cycle: packages/core/src/ports/json.ts -> packages/core/src/ports/store.ts',
    ]);
    expect(await check(loose)).toEqual([
      'core-no-loose-file: packages/core/src/helpers.ts -> packages/core/src/ports/json.ts',
    ]);
  }, 120_000);
});
