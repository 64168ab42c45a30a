/**
 * @datadriver/opentelemetry from its tarball, installed with plain npm into a fresh project,
 * type-checks and records a load with the OpenTelemetry SDK 2.x. (The `datadriver` bin of
 * @datadriver/cli, installed from its tarballs by `pnpm pack:local`'s line, prints its help and
 * inspects a profile left locked on Redis in pack-local.test.ts.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { consumerProject, run, Scratch, tarballs } from './consumer-project.js';
import { TELEMETRY_PROGRAM } from './operate-programs.js';

const scratch = new Scratch();
afterAll(() => scratch.removeAll());

describe('the operating packages installed from their tarballs with npm', () => {
  it('@datadriver/opentelemetry: type-checks with the SDK 2.x (and its api 1.9) and records a load', async () => {
    const dir = await consumerProject(
      scratch,
      {
        ...(await tarballs(scratch, ['core', 'opentelemetry'])),
        // What npm installs beside the SDK 2.x, the last line on Node 20: it peers on api < 1.10.
        '@opentelemetry/api': '1.9.1',
        '@opentelemetry/sdk-metrics': '2.12.1',
      },
      TELEMETRY_PROGRAM,
    );
    const { stdout } = await run('node', ['out/main.js'], { cwd: dir });
    expect(JSON.parse(stdout.trim())).toEqual({
      points: 1,
      attributes: {
        'datadriver.driver.name': 'PlayerData',
        'datadriver.outcome': 'loaded',
        'datadriver.load.reason': 'new',
        'datadriver.load.waited_on': 'none',
        'datadriver.load.session': false,
      },
    });
  });
});
