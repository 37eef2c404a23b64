/**
 * A store of source partitions in an S3-compatible bucket (`--store s3://bucket/prefix`;
 * docs/deployment.md), through the AWS SDK: the layout of source-store.ts under the prefix. A
 * partition is written on the local disk first, then uploaded, its `source.json` record last and
 * only once every other object is in place (the record is what makes a partition exist: a reader
 * never finds a record whose files are missing). Replacing a partition deletes its record first.
 * The build downloads a partition's objects to the local work directory before loading them, and
 * checks them there against the SHA-256 of its record; a reuse checks their sizes by listing first.
 *
 * The client takes the SDK's usual settings from the environment: credentials
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, a profile or an instance role), `AWS_REGION`
 * (default `us-east-1`), and `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` for a bucket that is not
 * AWS's (MinIO, Ceph, s3rver), addressed by path.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';

/** Whether a store location is an S3 URL. */
export const isS3Store = (store: string): boolean => /^s3:\/\//i.test(store);

/** Bucket and key prefix (no leading or trailing slash) of an `s3://bucket/prefix` location. */
export function parseS3(location: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(location);
  if (!m || !m[1]) throw new Error(`not an S3 location: ${location} (s3://bucket/prefix)`);
  return { bucket: m[1], prefix: m[2]!.replace(/\/+$/, '') };
}

/** Joins an S3 location and path segments with `/`. */
export const s3Join = (location: string, ...parts: string[]): string => [location.replace(/\/+$/, ''), ...parts].join('/');

type Sdk = typeof import('@aws-sdk/client-s3');

let client: { sdk: Sdk; s3: S3Client } | null = null;

/**
 * The process's S3 client (settings from the environment, see the module's comment); the SDK is
 * loaded on first use, so a run with a local store never loads it.
 */
async function s3(): Promise<{ sdk: Sdk; s3: S3Client }> {
  if (client) return client;
  // the locked SDK version supports Node 20; its warning is about later versions
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const sdk = await import('@aws-sdk/client-s3');
  const endpoint = process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  client = {
    sdk,
    s3: new sdk.S3Client({
      region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      // checksums only where S3 requires them: S3-compatible servers do not all know the newer ones
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  };
  return client;
}

/** Every object under `prefix/` (the S3 location `location`): its key and size in bytes, paged. */
async function objectsUnder(location: string): Promise<Array<{ key: string; size: number }>> {
  const { bucket, prefix } = parseS3(location);
  const { sdk, s3: c } = await s3();
  const objects: Array<{ key: string; size: number }> = [];
  let token: string | undefined;
  do {
    const r = await c.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken: token }));
    for (const o of r.Contents ?? []) if (o.Key) objects.push({ key: o.Key, size: o.Size ?? -1 });
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

/** Every key under `prefix/` (the S3 location `location`), paged. */
const keysUnder = async (location: string): Promise<string[]> => (await objectsUnder(location)).map((o) => o.key);

/**
 * The sizes (bytes) of the objects under an S3 location, by path relative to it (`/`-separated):
 * a partition's files checked against its record without downloading them (source-store.ts).
 * @throws on an S3 error.
 */
export async function s3Sizes(location: string): Promise<Map<string, number>> {
  const { prefix } = parseS3(location);
  return new Map((await objectsUnder(location)).map((o) => [o.key.slice(prefix.length + 1), o.size]));
}

/**
 * The names of the "directories" right under an S3 location (`snapshot=2025-01`, ...), from the
 * keys under it (a listing without delimiter: not every S3-compatible server groups prefixes).
 */
export async function s3List(location: string): Promise<string[]> {
  const { prefix } = parseS3(location);
  const names = new Set<string>();
  for (const key of await keysUnder(location)) {
    const rest = key.slice(prefix.length + 1);
    const slash = rest.indexOf('/');
    if (slash > 0) names.add(rest.slice(0, slash));
  }
  return [...names].sort();
}

/** The text of an object, or null when it does not exist. @throws on other errors (access, network). */
export async function s3ReadText(location: string): Promise<string | null> {
  const { bucket, prefix } = parseS3(location);
  const { sdk, s3: c } = await s3();
  try {
    const r = await c.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: prefix }));
    return (await r.Body?.transformToString('utf8')) ?? null;
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'NoSuchKey' || name === 'NotFound') return null;
    throw e;
  }
}

/** Deletes keys of one bucket, a thousand a request. */
async function deleteKeys(bucket: string, keys: string[]): Promise<void> {
  const { sdk, s3: c } = await s3();
  for (let k = 0; k < keys.length; k += 1000) {
    await c.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.slice(k, k + 1000).map((Key) => ({ Key })) } }));
  }
}

/** Every file under a local directory, relative `/`-separated paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const rel of await readdir(dir, { recursive: true })) {
    if ((await stat(path.join(dir, rel))).isFile()) out.push(rel.split(path.sep).join('/'));
  }
  return out.sort();
}

/**
 * Uploads local directory `localDir` as the partition at S3 location `location`, the file named
 * `record` last: the old record is deleted first, the files uploaded, the old partition's other
 * objects deleted, the record uploaded.
 * @throws on an S3 error; the partition then has no record (it does not exist) until a next write.
 */
export async function s3PutPartition(localDir: string, location: string, record: string): Promise<void> {
  const { bucket, prefix } = parseS3(location);
  const before = await keysUnder(location);
  const recordKey = `${prefix}/${record}`;
  if (before.includes(recordKey)) await deleteKeys(bucket, [recordKey]);
  const files = await filesUnder(localDir);
  const { sdk, s3: c } = await s3();
  const put = async (rel: string): Promise<void> => {
    const size = (await stat(path.join(localDir, rel))).size;
    await c.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: `${prefix}/${rel}`, Body: createReadStream(path.join(localDir, rel)), ContentLength: size }));
  };
  for (const rel of files) if (rel !== record) await put(rel);
  const written = new Set(files.map((rel) => `${prefix}/${rel}`));
  await deleteKeys(bucket, before.filter((k) => !written.has(k) && k !== recordKey));
  await put(record);
}

/**
 * Downloads the partition at S3 location `location` into local directory `localDir` (created).
 * @throws on an S3 error.
 */
export async function s3GetPartition(location: string, localDir: string): Promise<void> {
  const { bucket, prefix } = parseS3(location);
  const { sdk, s3: c } = await s3();
  for (const key of await keysUnder(location)) {
    const target = path.join(localDir, ...key.slice(prefix.length + 1).split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    const r = await c.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
    await pipeline(r.Body as Readable, createWriteStream(target));
  }
}
