import { loadConfig } from '../config';
import { ensureBucket } from '../storage/s3/ensure-bucket';
import { createS3Clients } from '../storage/s3/s3-clients';

// `npm run storage:init`: with STORAGE_DRIVER=s3, creates S3_BUCKET unless it exists (docker-compose
// runs it with the migrations). The local driver needs nothing: its folder is made on first write.
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.storage.driver !== 's3' || !config.storage.s3) {
    console.log(`storage driver ${config.storage.driver}: nothing to prepare`);
    return;
  }
  const { client, bucket } = createS3Clients(config.storage.s3);
  try {
    console.log(`bucket ${bucket}: ${await ensureBucket(client, bucket)}`);
  } finally {
    client.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
