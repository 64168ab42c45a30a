/** The demo's web server: the page's files, the list of cases, and a case as an event stream. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Aborted } from '../src/aborted.js';
import { type RunningServer, startDemoServer } from '../src/http-server.js';
import { MemoryCaseRunner } from '../src/memory/memory-runner.js';
import { PUBLIC_DIR } from '../src/public-dir.js';
import type { CaseRunner, StreamMessage } from '../src/stream.js';

let server: RunningServer;
/** How each run the server started ended. */
const ended: string[] = [];

/** The in-memory runner, noting how each run ends. */
function watched(inner: CaseRunner): CaseRunner {
  return {
    mode: inner.mode,
    about: inner.about,
    clock: inner.clock,
    cases: inner.cases,
    close: () => inner.close(),
    run: (caseId, options, sink) =>
      inner.run(caseId, options, sink).then(
        (outcome) => {
          ended.push(`${caseId} played`);
          return outcome;
        },
        (error: unknown) => {
          ended.push(`${caseId} ${error instanceof Aborted ? 'aborted' : 'failed'}`);
          throw error;
        },
      ),
  };
}

beforeAll(async () => {
  server = await startDemoServer({
    runner: watched(new MemoryCaseRunner()),
    publicDir: PUBLIC_DIR,
    port: 0,
  });
});

afterAll(() => server.close());

/** A request with the path sent as written (fetch would normalise `..`). */
function rawStatus(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: server.port, path }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

function messagesOf(body: string): StreamMessage[] {
  return body
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as StreamMessage);
}

describe('the demo server', () => {
  it('prints a local URL', () => {
    expect(server.url).toBe(`http://localhost:${server.port}/`);
  });

  it('serves the page and its files', async () => {
    const page = await fetch(server.url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<script type="module" src="/app.js"></script>');
    for (const file of ['app.js', 'lanes.js', 'event-log.js', 'format.js', 'style.css']) {
      const response = await fetch(new URL(file, server.url));
      expect(response.status, file).toBe(200);
    }
  });

  it('lists the cases and the mode', async () => {
    const body = (await (await fetch(new URL('api/cases', server.url))).json()) as {
      mode: string;
      cases: Array<{ id: string }>;
    };
    expect(body.mode).toBe('in-memory');
    expect(body.cases.map((item) => item.id)).toContain('crashed-holder');
  });

  it('streams a case as Server-Sent Events, ending with end', async () => {
    const response = await fetch(new URL('api/cases/live-holder/run?speed=instant', server.url));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const messages = messagesOf(await response.text());
    expect(messages.map((message) => message.kind)).toEqual([
      'started',
      ...Array(9).fill('entry'),
      'outcome',
      'end',
    ]);
    expect(messages.at(-2)).toMatchObject({ outcome: { waitedMs: 340 } });
  });

  it('stops a case whose page went away, and goes on serving', async () => {
    const stop = new AbortController();
    const response = await fetch(new URL('api/cases/stalled-holder/run?speed=1', server.url), {
      signal: stop.signal,
    });
    const reader = response.body!.getReader();
    await reader.read(); // the first message: the case is playing
    stop.abort();
    await reader.read().catch(() => undefined);
    const again = await fetch(new URL('api/cases/live-holder/run?speed=instant', server.url));
    expect(messagesOf(await again.text()).at(-1)).toEqual({ kind: 'end' });
    expect(ended).toContain('live-holder played');
    await vi.waitFor(() => expect(ended).toContain('stalled-holder aborted'));
  });

  it('answers an unknown case, a bad speed and anything else with an error status', async () => {
    const status = async (path: string) => (await fetch(new URL(path, server.url))).status;
    expect(await status('api/cases/nope/run')).toBe(404);
    expect(await status('api/cases/live-holder/run?speed=fast')).toBe(400);
    expect(await status('nothing-here.js')).toBe(404);
    expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
  });

  it('never serves a file from outside its folder', async () => {
    expect(await rawStatus('/../package.json')).toBe(404);
    expect(await rawStatus('/%2e%2e/src/server.ts')).toBe(404);
    expect(await rawStatus('/..%2f..%2fpackage.json')).toBe(404);
    expect(await rawStatus('/%E0%A4%A')).toBe(404);
  });
});
