import type { Reader } from './reader';

// Where blobs live (the local disk or any S3-compatible store), how their URLs are signed, and
// how uploads are cut into parts (docs/design.md#storage, #uploads).

export interface StorageConfig {
  /** `local`: one shared disk, the API serves signed part and file URLs; `s3`: any S3-compatible store. */
  readonly driver: 'local' | 's3';
  readonly localDir: string;
  readonly signingSecret: string;
  readonly urlTtlSeconds: number;
  /** Set exactly when driver is `s3`. */
  readonly s3: S3Settings | null;
}

export interface UploadsConfig {
  readonly maxBytes: number;
  /** Preferred part size; a huge file gets bigger parts so it never needs over 10,000. */
  readonly partSizeBytes: number;
}

export interface S3Settings {
  /** Null means AWS itself (the region's endpoint); set it for any other S3-compatible store. */
  readonly endpoint: string | null;
  /**
   * The endpoint written into presigned URLs, for clients that reach the store by another name
   * than the API and workers do (docker-compose: `http://s3:7070` inside, `localhost` outside).
   * SigV4 signs the host, so the URL must carry the one the client will use.
   */
  readonly publicEndpoint: string | null;
  readonly region: string;
  readonly bucket: string;
  /** Null: the SDK's default credential chain (instance roles, AWS_* variables, profiles). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  /** `bucket` in the path rather than the host name: what most self-hosted stores need. */
  readonly forcePathStyle: boolean;
}

/** S3 refuses multipart parts below 5 MiB (all but the last), so the s3 driver needs at least that. */
export const S3_MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;

const DEV_SIGNING_SECRET = 'dev-only-signing-secret-change-me-in-production';

/** Storage and uploads together: the s3 driver bounds the part size. */
export function readStorage(read: Reader, nodeEnv: string): { storage: StorageConfig; uploads: UploadsConfig } {
  const signingSecret = read.string('URL_SIGNING_SECRET', DEV_SIGNING_SECRET);
  if (nodeEnv === 'production' && signingSecret === DEV_SIGNING_SECRET) {
    read.problems.push('URL_SIGNING_SECRET must be set in production');
  } else if (signingSecret.length < 32) {
    read.problems.push('URL_SIGNING_SECRET must be at least 32 characters');
  }

  const partSizeBytes = read.int('UPLOAD_PART_SIZE_BYTES', 8 * 1024 * 1024, 64 * 1024, 512 * 1024 * 1024);
  const maxBytes = read.int('UPLOAD_MAX_BYTES', 5 * 1024 ** 3, 1, 5 * 1024 ** 4);

  const driver = read.oneOf('STORAGE_DRIVER', 'local', ['local', 's3'] as const);
  const s3 = driver === 's3' ? readS3Settings(read) : null;
  if (driver === 's3' && partSizeBytes < S3_MIN_PART_SIZE_BYTES) {
    read.problems.push(`UPLOAD_PART_SIZE_BYTES must be at least ${S3_MIN_PART_SIZE_BYTES} (5 MiB) with STORAGE_DRIVER=s3: S3 refuses smaller multipart parts`);
  }
  return {
    storage: {
      driver,
      localDir: read.string('STORAGE_DIR', '.dev/storage'),
      signingSecret,
      urlTtlSeconds: read.int('SIGNED_URL_TTL_SECONDS', 900, 10, 7 * 24 * 3600),
      s3,
    },
    uploads: { maxBytes, partSizeBytes },
  };
}

function readS3Settings(read: Reader): S3Settings {
  const bucket = read.optional('S3_BUCKET');
  if (bucket === null) read.problems.push('S3_BUCKET must be set with STORAGE_DRIVER=s3');
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) read.problems.push(`S3_BUCKET must be a valid bucket name (got "${bucket}")`);
  const accessKeyId = read.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    read.problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the default AWS credential chain)');
  }
  const endpoint = read.url('S3_ENDPOINT', null, ['http:', 'https:']);
  return {
    endpoint,
    publicEndpoint: read.url('S3_PUBLIC_ENDPOINT', endpoint, ['http:', 'https:']),
    region: read.string('S3_REGION', 'us-east-1'),
    bucket: bucket ?? '',
    credentials: accessKeyId !== null && secretAccessKey !== null ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: read.bool('S3_FORCE_PATH_STYLE', endpoint !== null),
  };
}
