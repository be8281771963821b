import { FsObjectStore, type FsObjectStoreOptions } from './fs.js';
import { S3ObjectStore, type S3ObjectStoreOptions } from './s3.js';
import type { ObjectStore } from './types.js';

export type ObjectStoreConfig = ({ engine: 'fs' } & FsObjectStoreOptions) | ({ engine: 's3' } & S3ObjectStoreOptions);

export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  switch (config.engine) {
    case 'fs':
      return new FsObjectStore(config);
    case 's3':
      return new S3ObjectStore(config);
  }
}

export { FsObjectStore, S3ObjectStore };
export type { FsObjectStoreOptions, S3ObjectStoreOptions };
export { InvalidObjectKeyError, type ObjectStore, type PutOptions, type ListOptions } from './types.js';
export { validateKey, validatePrefix } from './keys.js';
