/** The CLI run in this process (its `runCli`) or as the built bin, with what it printed. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli } from '../../src/index.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `datadriver <args>` in this process; `answer` is what the person types at a prompt. */
export async function cli(args: readonly string[], answer?: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    ...(answer === undefined ? {} : { ask: async () => answer }),
  });
  return { code, stdout, stderr };
}

/** The parsed `--json` output of a run that succeeded. */
export function json<T>(run: CliRun): T {
  if (run.code !== 0) throw new Error(`the CLI failed (${run.code}): ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout) as T;
}

const bin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Runs the built bin as its own process (build the package first). */
export async function spawnCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [bin, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
