/**
 * An HTTP proxy in front of DynamoDB Local that can answer a call the way DynamoDB does when
 * it throttles, forward a call and then lose its response, or let a rival write land just
 * before a call goes through. The SDK under test parses real wire answers: nothing inside the
 * SDK is replaced.
 */
import { createServer, type IncomingMessage, request, type Server } from 'node:http';

export type HttpFault =
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly type: string;
      readonly message: string;
      /** More fields of the error's JSON body (a transaction's `CancellationReasons`). */
      readonly fields?: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'lose-response' }
  | { readonly kind: 'race'; readonly rival: () => Promise<unknown> };

interface Rule {
  readonly operation: string;
  remaining: number;
  readonly fault: HttpFault;
}

export interface HttpFaultProxy {
  readonly endpoint: string;
  /** Operations (`GetItem`, `PutItem`...) in the order they arrived, faulted or not. */
  readonly seen: string[];
  /** The next `times` calls of `operation` get `fault`. */
  inject(operation: string, fault: HttpFault, times?: number): void;
  close(): Promise<void>;
}

export const throttled: HttpFault = {
  kind: 'error',
  status: 400,
  type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded.',
};

export async function startHttpFaultProxy(upstream: string): Promise<HttpFaultProxy> {
  const target = new URL(upstream);
  const rules: Rule[] = [];
  const seen: string[] = [];
  const server = createServer(async (incoming, outgoing) => {
    const body = await readBody(incoming);
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    seen.push(operation);
    const rule = rules.find((r) => r.operation === operation && r.remaining > 0);
    if (rule) rule.remaining -= 1;
    const fault = rule?.fault;
    if (fault?.kind === 'error') {
      outgoing.writeHead(fault.status, { 'content-type': 'application/x-amz-json-1.0' });
      outgoing.end(JSON.stringify({ __type: fault.type, message: fault.message, ...fault.fields }));
      return;
    }
    if (fault?.kind === 'race') await fault.rival();
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      async (answer) => {
        const reply = await readBody(answer);
        // The call landed; its response dies on the way back.
        if (fault?.kind === 'lose-response') return void incoming.socket.destroy();
        outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
        outgoing.end(reply);
      },
    );
    forwarded.on('error', () => incoming.socket.destroy());
    forwarded.end(body);
  });
  const port = await listen(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    inject: (operation, fault, times = 1) =>
      void rules.push({ operation, remaining: times, fault }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}
