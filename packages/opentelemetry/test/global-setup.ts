import { backendsGlobalSetup } from '@datadriver/backends';

// This package's vitest is another install than the backends' (it peers on a newer
// @opentelemetry/api), so the backends' typing of inject('redisUrl') does not reach it.
declare module 'vitest' {
  interface ProvidedContext {
    redisUrl: string;
  }
}

export default backendsGlobalSetup('redis');
