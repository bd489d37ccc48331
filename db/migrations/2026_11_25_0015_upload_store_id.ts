import { Kysely } from 'kysely';

// Frozen in time: on the s3 storage driver an upload is a real multipart upload in the object
// store, created with the project; its id (S3's UploadId) is what every later part URL, ListParts,
// CompleteMultipartUpload and AbortMultipartUpload names. Null on the local driver, whose parts
// the API stores itself.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('store_upload_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('store_upload_id').execute();
}
