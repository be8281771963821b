import { MemoryCoordStore, type MemoryCoordStoreOptions } from './memory.js';
import { RedisCoordStore, type RedisCoordStoreOptions } from './redis.js';
import type { CoordStore } from './types.js';

export type CoordStoreConfig =
  | ({ engine: 'memory' } & MemoryCoordStoreOptions)
  | ({ engine: 'redis' } & RedisCoordStoreOptions);

export function createCoordStore(config: CoordStoreConfig): CoordStore {
  switch (config.engine) {
    case 'memory':
      return new MemoryCoordStore(config);
    case 'redis':
      return new RedisCoordStore(config);
  }
}

export { MemoryCoordStore, RedisCoordStore };
export type { MemoryCoordStoreOptions, RedisCoordStoreOptions };
export type { CoordStore, RateLimitResult, HandlerErrorSink } from './types.js';
