import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertValidKey } from '../blob-store';
import { contentTypeFor } from '../content-type';
import { attachmentDisposition, type DownloadLinkOptions, type DownloadLinks } from '../download-links';
import type { S3Clients } from './s3-clients';

/**
 * Presigned GetObject URLs: the bytes go from the store to the client, and the store answers
 * with the file name and type the URL asks for (`response-content-disposition`, `-type`).
 */
export class S3DownloadLinks implements DownloadLinks {
  constructor(private readonly s3: S3Clients) {}

  async urlFor(key: string, options: DownloadLinkOptions): Promise<string> {
    assertValidKey(key);
    const command = new GetObjectCommand({
      Bucket: this.s3.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(options.fileName),
      ResponseContentType: contentTypeFor(key),
      // Signed URLs are per caller and short-lived; shared caches must not keep the bytes.
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.s3.presigner, command, { expiresIn: options.ttlSeconds });
  }
}
