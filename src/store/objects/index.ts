import { FsObjectStore, type FsObjectStoreOptions } from './fs.js';
import type { S3ObjectStoreOptions } from './s3.js';
import type { ObjectStore } from './types.js';

export type ObjectStoreConfig = ({ engine: 'fs' } & FsObjectStoreOptions) | ({ engine: 's3' } & S3ObjectStoreOptions);

export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  switch (config.engine) {
    case 'fs':
      return new FsObjectStore(config);
    case 's3':
      // The AWS SDK costs ~16 MB resident: loaded only when the service stores objects in S3.
      return new (await import('./s3.js')).S3ObjectStore(config);
  }
}

export { FsObjectStore };
export type { FsObjectStoreOptions, S3ObjectStoreOptions };
export { InvalidObjectKeyError, type ObjectStore, type PutOptions, type ListOptions } from './types.js';
export { OBJECT_KEY_FAMILIES, validateKey, validatePrefix } from './keys.js';
