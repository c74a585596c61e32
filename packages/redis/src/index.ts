export {
  connectRedisStore,
  REDIS_URL_ENV,
  type RedisStore,
  type RedisStoreOptions,
} from './redis-store.js';
export type { RedisNodeAddress } from './redis-url.js';
