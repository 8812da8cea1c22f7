/**
 * S3 or an S3-compatible store (STORAGE=s3): objects through @aws-sdk/client-s3, uploads through
 * @aws-sdk/s3-presigned-post with the same policy as the local adapter (exact key, 1 B .. 1 MB,
 * 10 minutes). S3 policies cannot list several content types, so the type is left to the conversion,
 * which decides by the bytes anyway (docs/decisions/ D32).
 */
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { Readable } from 'node:stream';
import { UPLOAD_POLICY, type ObjectStorage, type PresignedPost } from './storage';

/** Every object is stored encrypted by the store (SSE-S3): puts and presigned uploads. */
const SERVER_SIDE_ENCRYPTION = 'AES256';
/** The smallest part S3 takes in a multipart upload (but the last). */
const MULTIPART_PART_BYTES = 5 * 1024 * 1024;

export interface S3Options {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string | undefined;
  readonly accessKeyId?: string | undefined;
  readonly secretAccessKey?: string | undefined;
  /** Path-style addressing (most S3-compatible servers). */
  readonly forcePathStyle?: boolean;
}

export class S3Storage implements ObjectStorage {
  readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
      // S3-compatible stores do not all know the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.accessKeyId && options.secretAccessKey
        ? {
            credentials: {
              accessKeyId: options.accessKeyId,
              secretAccessKey: options.secretAccessKey,
            },
          }
        : {}),
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ServerSideEncryption: SERVER_SIDE_ENCRYPTION,
      }),
    );
  }

  /**
   * A multipart upload of parts of 5 MiB, two in flight. When the source fails its parts are
   * aborted; the source's error is the one thrown, whether or not the abort succeeds (a bucket
   * rule removes what an abort leaves, docs/operations.md).
   */
  async putStream(
    key: string,
    source: AsyncIterable<Uint8Array>,
    contentType: string,
  ): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.options.bucket,
        Key: key,
        Body: Readable.from(source, { objectMode: false }),
        ContentType: contentType,
        ServerSideEncryption: SERVER_SIDE_ENCRYPTION,
      },
      partSize: MULTIPART_PART_BYTES,
      queueSize: 2,
      leavePartsOnError: true,
    });
    try {
      await upload.done();
    } catch (error) {
      if (upload.uploadId)
        await this.client
          .send(
            new AbortMultipartUploadCommand({
              Bucket: this.options.bucket,
              Key: key,
              UploadId: upload.uploadId,
            }),
          )
          .catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const object = await this.getStream(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async getStream(key: string): Promise<{ body: Readable; size: number } | null> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: key }),
      );
      if (!result.Body) return null;
      // In Node.js the SDK's body is an http response stream.
      return { body: result.Body as Readable, size: result.ContentLength ?? 0 };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
        return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async exists(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (error instanceof NotFound || name === 'NotFound' || name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async presignPost(key: string): Promise<PresignedPost> {
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.options.bucket,
      Key: key,
      // The browser's upload is encrypted at rest too: the policy admits it only with the header.
      Fields: { 'x-amz-server-side-encryption': SERVER_SIDE_ENCRYPTION },
      Conditions: [
        ['eq', '$key', key],
        ['eq', '$x-amz-server-side-encryption', SERVER_SIDE_ENCRYPTION],
        ['content-length-range', UPLOAD_POLICY.minBytes, UPLOAD_POLICY.maxBytes],
      ],
      Expires: UPLOAD_POLICY.expiresInSeconds,
    });
    return { url, fields: { ...fields, key } };
  }
}
