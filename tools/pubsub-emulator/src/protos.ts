import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';

/** The two Pub/Sub services we serve, as grpc-js service definitions. */
export interface PubSubServiceDefinitions {
  publisher: ServiceDefinition;
  subscriber: ServiceDefinition;
}

/**
 * How request messages are decoded. camelCase names and string int64s are what
 * the rest of the emulator is typed against (see proto-shapes.ts); `defaults`
 * fills absent scalars so handlers need not guard every field.
 */
const LOADER_OPTIONS: Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  arrays: true,
  objects: true,
  oneofs: true,
};

/**
 * Finds the protos shipped inside the client packages, so the emulator serves
 * exactly the schema of the client version it is tested with. google-gax is
 * only a dependency of @google-cloud/pubsub, so it is resolved from there.
 */
function protoRoots(): { pubsub: string; gax: string } {
  const here = createRequire(import.meta.url);
  const pubsubMain = here.resolve('@google-cloud/pubsub');
  const gaxMain = createRequire(pubsubMain).resolve('google-gax');
  // Both mains live at <package>/build/src/index.js; protos at <package>/build/protos.
  return {
    pubsub: join(dirname(dirname(pubsubMain)), 'protos'),
    gax: join(dirname(dirname(gaxMain)), 'protos'),
  };
}

let cached: PubSubServiceDefinitions | undefined;

/** Loads (once) the Publisher and Subscriber service definitions. */
export function loadPubSubServices(): PubSubServiceDefinitions {
  if (cached) return cached;
  const roots = protoRoots();
  const definition = loadSync('google/pubsub/v1/pubsub.proto', {
    ...LOADER_OPTIONS,
    includeDirs: [roots.pubsub, roots.gax],
  });
  cached = {
    publisher: definition['google.pubsub.v1.Publisher'] as ServiceDefinition,
    subscriber: definition['google.pubsub.v1.Subscriber'] as ServiceDefinition,
  };
  return cached;
}
