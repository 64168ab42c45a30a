import { execFile } from 'node:child_process';

const HOST = '127.0.0.1';
const CALL_TIMEOUT_MS = 5_000;

/**
 * One command through `redis-cli` (it ships with redis-server), answered as text. Rejects with
 * redis-cli's own words when the node cannot be reached or the command fails.
 */
export function redisCli(port: number, ...args: string[]): Promise<string> {
  return runCli(['-h', HOST, '-p', String(port), ...args], CALL_TIMEOUT_MS);
}

/** `redis-cli` with arguments of its own (`--cluster create ...`), within `timeoutMs`. */
export function runCli(args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      // redis-cli prints a failed command's error on stdout and exits 0: treat it as a failure.
      const text = stdout.toString();
      if (error) reject(new Error(`redis-cli ${args.join(' ')}: ${stderr || error.message}`));
      else if (/^(ERR|LOADING|MASTERDOWN|CLUSTERDOWN|NOAUTH) /.test(text)) {
        reject(new Error(`redis-cli ${args.join(' ')}: ${text.trim()}`));
      } else resolve(text);
    });
  });
}
