import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, Readable, Transform } from 'node:stream';
import { validateKey, validatePrefix } from './keys.js';
import { listLimit, type ListOptions, type ObjectStore, type PutOptions } from './types.js';

export interface S3ObjectStoreOptions {
  bucket: string;
  /** Default `us-east-1`. */
  region?: string;
  /** For S3-compatible servers (MinIO, R2, Ceph, ...), e.g. `http://127.0.0.1:9000`. Omit for AWS. */
  endpoint?: string;
  /** `bucket` in the path instead of the host name; most self-hosted S3-compatible servers need it. */
  forcePathStyle?: boolean;
  /** Static credentials, both or neither; omit to use the AWS SDK's default chain (instance role, shared config, ...). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key, e.g. `sightline/`, so several deployments can share a bucket. */
  prefix?: string;
  /** Multipart part size for streamed puts, default 8 MiB (minimum 5 MiB). */
  partSizeBytes?: number;
  /** Parts uploaded in parallel per streamed put, default 2; a streamed put holds about partSize x (queueSize + 2) (measured: 21 MiB at 5 MiB x 2). */
  queueSize?: number;
  /**
   * `when_supported` (SDK default) sends CRC checksums with every upload; `when_required` only where
   * the API demands it, for S3-compatible servers that reject the newer checksum headers.
   */
  checksums?: 'when_supported' | 'when_required';
}

/** Objects in an S3 bucket. PUT (and CompleteMultipartUpload) is atomic on S3, so no temp objects are needed. */
export class S3ObjectStore implements ObjectStore {
  readonly engine = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    validatePrefix(this.prefix);
    this.partSize = Math.max(options.partSizeBytes ?? 8 * 1024 * 1024, 5 * 1024 * 1024);
    this.queueSize = Math.max(1, options.queueSize ?? 2);
    const checksums = options.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
    const { accessKeyId, secretAccessKey } = options;
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
      throw new TypeError('S3 accessKeyId and secretAccessKey must be given together');
    // The SDK warns on Node < 22 about its releases after January 2027; the locked version runs
    // on Node 20 as package.json's engines say, so the warning (on stderr at every start with
    // S3_BUCKET) only alarmed operators. Its documented switch; an operator's own value stands.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
      ...(accessKeyId !== undefined &&
        secretAccessKey !== undefined && { credentials: { accessKeyId, secretAccessKey } }),
      forcePathStyle: options.forcePathStyle ?? false,
      requestChecksumCalculation: checksums,
      responseChecksumValidation: checksums,
    });
  }

  async put(key: string, body: Uint8Array | NodeJS.ReadableStream, opts: PutOptions = {}): Promise<{ size: number }> {
    validateKey(key);
    const params = { Bucket: this.bucket, Key: this.prefix + key, ContentType: opts.contentType };
    if (body instanceof Uint8Array) {
      await this.client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.byteLength }));
      return { size: body.byteLength };
    }
    // Upload reads at most queueSize parts ahead: a single PutObject when the stream fits in one part,
    // otherwise a multipart upload that is aborted (nothing becomes visible) if the source fails.
    let size = 0;
    let sourceError: Error | undefined;
    const counted = pipeline(
      body,
      new Transform({
        transform(chunk: Buffer | string, _enc, done) {
          size += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
          done(null, chunk);
        },
      }),
      (err) => {
        if (err) sourceError = err;
      },
    );
    const upload = new Upload({
      client: this.client,
      params: { ...params, Body: counted },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      counted.destroy(); // stops reading the source when the upload failed first
      // Report the source's failure rather than a follow-up one (e.g. a refused AbortMultipartUpload).
      if (sourceError !== undefined && sourceError !== err) {
        if (sourceError.cause === undefined) sourceError.cause = err;
        throw sourceError;
      }
      throw err;
    }
    return { size };
  }

  async get(key: string): Promise<Uint8Array | null> {
    const stream = await this.getStream(key);
    if (stream === null) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async getStream(key: string): Promise<Readable | null> {
    validateKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      if (res.Body === undefined) return Readable.from([]);
      return res.Body as Readable; // in Node the SDK body is an http.IncomingMessage
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    validateKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      return { size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<{ keys: string[]; next?: string }> {
    return this.listPage(prefix, opts, () => true);
  }

  async listWrittenBefore(
    prefix: string,
    before: Date,
    opts: ListOptions = {},
  ): Promise<{ keys: string[]; next?: string }> {
    return this.listPage(prefix, opts, (modified) => modified !== undefined && modified.getTime() < before.getTime());
  }

  private async listPage(
    prefix: string,
    opts: ListOptions,
    keep: (lastModified: Date | undefined) => boolean,
  ): Promise<{ keys: string[]; next?: string }> {
    validatePrefix(prefix);
    if (opts.after !== undefined) validatePrefix(opts.after);
    const limit = listLimit(opts.limit);
    // The cursor is the last key listed (StartAfter), the same cursor the fs engine uses.
    const res = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: this.prefix + prefix,
        MaxKeys: limit,
        ...(opts.after !== undefined && { StartAfter: this.prefix + opts.after }),
      }),
    );
    const listed = (res.Contents ?? []).filter((o) => o.Key !== undefined);
    const last = listed[listed.length - 1]?.Key?.slice(this.prefix.length);
    const keys = listed.filter((o) => keep(o.LastModified)).map((o) => o.Key!.slice(this.prefix.length));
    return res.IsTruncated === true && last !== undefined ? { keys, next: last } : { keys };
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === 'NoSuchBucket') return false; // a misconfiguration, not a missing object
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
