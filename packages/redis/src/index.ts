export { connectRedisStore, type RedisStore, type RedisStoreOptions } from './redis-store.js';
