import { Server, ServerCredentials } from '@grpc/grpc-js';
import { Broker } from './broker.js';
import { loadPubSubServices } from './protos.js';
import { publisherService } from './publisher-service.js';
import { subscriberService } from './subscriber-service.js';

export interface PubSubEmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
}

export interface PubSubEmulator {
  host: string;
  port: number;
  /** "host:port", the value for PUBSUB_EMULATOR_HOST or the client's apiEndpoint. */
  endpoint: string;
  stop(): Promise<void>;
}

/** A graceful shutdown waits for clients to go; past this, calls are cut. */
const GRACEFUL_STOP_MS = 1_000;

/** Starts an in-memory Pub/Sub gRPC server; state lives until stop(). */
export async function startPubSubEmulator(
  options: PubSubEmulatorOptions = {},
): Promise<PubSubEmulator> {
  const host = options.host ?? '127.0.0.1';
  const services = loadPubSubServices();
  const broker = new Broker();
  // Google accepts 10 MB publish requests; grpc-js would cut them at 4 MB.
  const server = new Server({ 'grpc.max_receive_message_length': 20 * 1024 * 1024 });
  server.addService(services.publisher, publisherService(broker));
  server.addService(services.subscriber, subscriberService(broker));
  const port = await bind(server, `${host}:${options.port ?? 0}`);
  return {
    host,
    port,
    endpoint: `${host}:${port}`,
    stop: async () => {
      broker.close();
      await shutdown(server);
    },
  };
}

function bind(server: Server, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    );
  });
}

function shutdown(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, GRACEFUL_STOP_MS);
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}
