/**
 * Writes `line`, then exits with `code` once the write is done. On POSIX a write to a pipe is
 * asynchronous, so `process.exit()` right after `console.log()` can drop the line: the fleet
 * reads each server's stop line from a pipe, and a user may pipe the fleet (`pnpm fleet | tee`).
 */
export function exitAfter(
  line: string,
  code: number,
  stream: NodeJS.WritableStream = process.stdout,
): void {
  // The callback runs on an error too (EPIPE: the reader is gone): exit either way.
  stream.write(`${line}\n`, () => process.exit(code));
}
