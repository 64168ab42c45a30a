import { connect } from 'node:net';

const PROBE_TIMEOUT_MS = 1000;

/** Opens one TCP connection, sends `request` when given, and resolves with whatever comes back. */
function exchange(host: string, port: number, request?: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (answer: string | undefined): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => finish(undefined));
    socket.once('error', () => finish(undefined));
    socket.once('connect', () => {
      if (request === undefined) finish('');
      else socket.write(request);
    });
    socket.once('data', (data) => finish(data.toString()));
  });
}

/** True once something accepts connections on the port. */
export async function acceptsConnections(host: string, port: number): Promise<boolean> {
  return (await exchange(host, port)) !== undefined;
}

/** Raw RESP inline PING: no client library, and it proves Redis serves commands, not just binds. */
export async function pingRedis(host: string, port: number): Promise<boolean> {
  return (await exchange(host, port, 'PING\r\n'))?.startsWith('+PONG') ?? false;
}

/**
 * One unsigned ListTables call. DynamoDB Local checks only that a SigV4-shaped Authorization
 * header is present, not the signature, so a fixed dummy one gets a real 200 answer.
 */
export async function dynamoListTablesAnswers(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      body: '{}',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS * 2),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** True once a plain GET on the URL answers 2xx (Google's emulator answers "Ok" on `/`). */
export async function httpAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS * 2) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
