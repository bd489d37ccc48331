import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config';

export interface S3Clients {
  /** For the API's and workers' own requests. */
  client: S3Client;
  /** Signs URLs that clients use, with the endpoint they reach the store by (no requests). */
  presigner: S3Client;
  bucket: string;
}

function clientConfig(settings: S3Settings, endpoint: string | null): S3ClientConfig {
  return {
    region: settings.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    // A copy: the config is frozen, and the SDK marks the credentials object it is given.
    ...(settings.credentials ? { credentials: { ...settings.credentials } } : {}),
    // The SDK's default adds CRC32 checksums to every upload; a presigned UploadPart would then
    // demand the checksum of bytes the signer never saw, and not every S3-compatible store takes
    // them. MD5 ETags are what the upload protocol checks, so checksums only when S3 demands one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

export function createS3Clients(settings: S3Settings): S3Clients {
  return {
    client: new S3Client(clientConfig(settings, settings.endpoint)),
    presigner: new S3Client(clientConfig(settings, settings.publicEndpoint)),
    bucket: settings.bucket,
  };
}

/** S3 reports a missing object as NoSuchKey (GET) or a bare 404 NotFound (HEAD). */
export function isS3NotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** ETags come quoted (`"abc"`); the API hands them out and compares them bare. */
export const bareEtag = (etag: string | undefined): string => (etag ?? '').replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
