/**
 * Server-Sent Events: one case's timeline, message by message, ended with `{ kind: 'end' }`.
 * A closed page aborts the run.
 */
import type { ServerResponse } from 'node:http';
import { Aborted } from './aborted.js';
import type { CaseRunner, RunOptions, StreamMessage } from './stream.js';

export async function streamCase(
  runner: CaseRunner,
  caseId: string,
  speed: RunOptions['speed'],
  response: ServerResponse,
): Promise<void> {
  const stop = new AbortController();
  response.on('close', () => stop.abort());
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const send = (message: StreamMessage): void => {
    if (response.writableEnded || response.destroyed) return; // the page went away
    response.write(`data: ${JSON.stringify(message)}\n\n`);
  };
  try {
    await runner.run(caseId, { speed, signal: stop.signal }, send);
  } catch (error) {
    if (!(error instanceof Aborted)) {
      console.error(`case ${caseId} failed:`, error);
      send({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  }
  send({ kind: 'end' });
  if (!response.destroyed) response.end();
}
