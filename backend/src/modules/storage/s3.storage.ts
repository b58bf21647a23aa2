import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { AppConfig } from '../../config/config.js';
import { isStorageKey, type FileStorage, type StoredFile } from './file-storage.js';

type S3Config = NonNullable<AppConfig['s3']>;

/**
 * Files in an S3 bucket or any S3-compatible store (MinIO, R2, Ceph...) through the official
 * AWS SDK. With a custom endpoint, path-style addressing is used and checksums are only sent
 * when an operation requires them, which the S3-compatible stores all understand.
 */
export class S3Storage implements FileStorage {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: Boolean(config.endpoint),
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      requestChecksumCalculation: config.endpoint ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      responseChecksumValidation: config.endpoint ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      maxAttempts: 3,
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    this.check(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    this.check(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      if (!(result.Body instanceof Readable)) return null;
      return { body: result.Body, size: result.ContentLength };
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    this.check(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  destroy(): void {
    this.client.destroy();
  }

  private check(key: string): void {
    if (!isStorageKey(key))
      throw new Error(`Refusing a storage key that was not generated here: ${JSON.stringify(key)}`);
  }
}
