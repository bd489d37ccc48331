import { S3Client } from '@aws-sdk/client-s3';
import { S3_MIN_PART_SIZE_BYTES } from '../../src/config';

// Suites that must hold on both storage drivers run once per driver: `local` (the default, the
// API serves parts and files) and `s3` (the versitygw server jest's global setup started).

export type StorageDriver = 'local' | 's3';
export const STORAGE_DRIVERS: StorageDriver[] = ['local', 's3'];

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the jest global setup starts the S3 server`);
  return value;
}

const MiB = 1024 * 1024;

/**
 * What an end-to-end upload uses per driver: the part size and the source video's size (null: a
 * plain test pattern). S3 refuses parts under 5 MiB, so there the video is noisy, about 12 MiB:
 * still three parts, still seconds long; locally small parts keep it quick.
 */
export const UPLOAD_SETUPS: Record<StorageDriver, { partSize: number; videoMiB: number | null }> = {
  local: { partSize: 64 * 1024, videoMiB: null },
  s3: { partSize: 5 * MiB, videoMiB: 12 },
};

/** Config overrides that put the API or a worker on `driver` (none for local). */
export function storageEnv(driver: StorageDriver): Record<string, string> {
  if (driver === 'local') return {};
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: required('TEST_S3_ENDPOINT'),
    S3_BUCKET: required('TEST_S3_BUCKET'),
    S3_REGION: required('TEST_S3_REGION'),
    S3_ACCESS_KEY_ID: required('TEST_S3_ACCESS_KEY_ID'),
    S3_SECRET_ACCESS_KEY: required('TEST_S3_SECRET_ACCESS_KEY'),
    S3_FORCE_PATH_STYLE: 'true',
    // S3 refuses smaller parts; the local driver's suites use smaller ones to stay quick.
    UPLOAD_PART_SIZE_BYTES: String(S3_MIN_PART_SIZE_BYTES),
  };
}

/** A client of the test S3 server, to look at the store behind the API's back. */
export function testS3Client(): { client: S3Client; bucket: string } {
  const client = new S3Client({
    endpoint: required('TEST_S3_ENDPOINT'),
    region: required('TEST_S3_REGION'),
    forcePathStyle: true,
    credentials: { accessKeyId: required('TEST_S3_ACCESS_KEY_ID'), secretAccessKey: required('TEST_S3_SECRET_ACCESS_KEY') },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { client, bucket: required('TEST_S3_BUCKET') };
}
