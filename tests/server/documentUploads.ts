/**
 * The upload chain of SPEC 4.4 as the browser runs it, for server tests: presign, the multipart POST
 * to the presigned URL, the conversion request and the status poll; and the application PDF's poll.
 */
import { expect } from 'vitest';
import { PENDING_STATUSES, type ApplicationPdfResponse } from '../../contract';
import type { Client, TestServer } from './harness';

export const KEY = 'transcript_file';

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  exe: 'application/octet-stream',
};
const typeOf = (name: string) => TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';

export interface Presigned {
  url: string;
  fields: Record<string, string> & { key: string };
}

/** Posts the multipart form the browser posts: every presigned field, then the file. */
export async function upload(
  server: TestServer,
  presigned: Presigned,
  files: { name: string; bytes: Buffer; type?: string }[],
  fieldOverrides: Record<string, string> = {},
): Promise<{ status: number; body: { message?: string } }> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...presigned.fields, ...fieldOverrides }))
    form.append(name, value);
  for (const file of files)
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? typeOf(file.name) }),
      file.name,
    );
  const response = await fetch(new URL(presigned.url, server.url), { method: 'POST', body: form });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as { message?: string }) : {} };
}

export async function presign(client: Client, key = KEY): Promise<Presigned> {
  const response = await client.post<Presigned>('/api/presigned-url', { answer_key: key });
  expect(response.status).toBe(200);
  return response.body;
}

/** Reads a status (SPEC 3.4) every 50 ms until it is neither UNPROCESSED nor IN_PROGRESS. */
export async function untilSettled<T extends { status: string }>(
  read: () => Promise<T>,
  what: string,
  tries = 600,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const current = await read();
    if (!(PENDING_STATUSES as readonly string[]).includes(current.status)) return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not settle`);
}

export function waitForSettled(client: Client, key = KEY) {
  return untilSettled(
    async () =>
      (await client.get(`/api/pdf/document-answer/${key}`)).body as {
        status: string;
        message: string;
        error?: string | null;
      },
    'conversion',
    400,
  );
}

/**
 * GET /api/pdf until the application PDF is prepared (or FAILED); every status read is pushed to
 * `seen`, and no URL may be handed out while it is pending.
 */
export function waitForPdf(client: Client, seen: string[] = []): Promise<ApplicationPdfResponse> {
  return untilSettled(async () => {
    const response = await client.get<ApplicationPdfResponse>('/api/pdf');
    expect(response.status).toBe(200);
    seen.push(response.body.status);
    if ((PENDING_STATUSES as readonly string[]).includes(response.body.status))
      expect(response.body.url).toBeNull();
    return response.body;
  }, 'the application PDF');
}

/** The whole chain of SPEC 4.4: presign, upload, request conversion, poll. */
export async function submitFile(
  server: TestServer,
  client: Client,
  name: string,
  bytes: Buffer,
  key = KEY,
) {
  const presigned = await presign(client, key);
  const uploaded = await upload(server, presigned, [{ name, bytes }]);
  expect(uploaded.status).toBe(204);
  const queued = await client.post(`/api/pdf/document-answer/${key}`, {
    file_key: presigned.fields.key,
    file_name: name,
  });
  expect(queued.status).toBe(202);
  return { presigned, settled: await waitForSettled(client, key) };
}
