/**
 * Once per run: a PostgreSQL initdb'd into a temporary folder on a free loopback port (or
 * DATABASE_URL), and a redis-server (or REDIS_URL) for the mixed stack. A backend that cannot
 * start fails the run.
 */
import { backendsGlobalSetup } from '@datadriver/backends';

export default backendsGlobalSetup('postgres', 'redis');
