import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';

/** Creates the bucket unless it exists (dev, docker-compose and the tests; production buckets are made by their owners). */
export async function ensureBucket(client: S3Client, bucket: string): Promise<'created' | 'exists'> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return 'exists';
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 404) throw err;
  }
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return 'created';
}
