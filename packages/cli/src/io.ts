/** What a command reads and writes: the process's streams, or a test's. */
export interface CliIo {
  /** Results: a table for people, JSON with `--json`. */
  readonly stdout: (text: string) => void;
  /** Progress and warnings, never results. */
  readonly stderr: (text: string) => void;
  /** One line typed by the person at the terminal, or `undefined` when none can be asked. */
  readonly ask?: (question: string) => Promise<string | undefined>;
  /** The clock ages are measured on (ms since the epoch). */
  readonly now?: () => number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The streams of this process; a prompt only when standard input is a terminal. */
export async function processIo(): Promise<CliIo> {
  const { createInterface } = await import('node:readline/promises');
  const ask = process.stdin.isTTY
    ? async (question: string) => {
        const line = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return await line.question(question);
        } finally {
          line.close();
        }
      }
    : undefined;
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    ...(ask ? { ask } : {}),
    now: () => Date.now(),
    env: process.env,
  };
}
