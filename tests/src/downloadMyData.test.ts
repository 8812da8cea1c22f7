// @vitest-environment jsdom
/**
 * "Download my data" (D152, D164): the ZIP is saved under the name the server gives it, a refusal
 * is a toast in the server's words, and a 401 goes to the central handler with no toast. fetch is
 * mocked here only; the end-to-end test downloads and opens the real ZIP.
 */
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serverMessages } from '../../contract';
import { UnauthorizedError } from '../../src/api/client';
import { rightsText } from '../../src/features/account/accountText';
import { downloadMyData } from '../../src/features/account/api/accountRights';

let answer: () => Response;
let saved: string[];
const toast = { show: vi.fn() };

beforeEach(() => {
  saved = [];
  toast.show.mockReset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      expect(String(input)).toBe('/api/account/export');
      return answer();
    }),
  );
  URL.createObjectURL = vi.fn(() => 'blob:zip');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    saved.push(this.download);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function client(onUnauthorized = vi.fn()) {
  const queryClient = new QueryClient({
    mutationCache: new MutationCache({
      onError: (error) => {
        if (error instanceof UnauthorizedError) onUnauthorized();
      },
    }),
  });
  return { queryClient, onUnauthorized };
}

describe('Download my data', () => {
  it('saves the ZIP under the server’s name', async () => {
    answer = () =>
      new Response(new Uint8Array([80, 75, 3, 4]), {
        headers: {
          'content-type': 'application/zip',
          'content-disposition': 'attachment; filename="ABCD-1234-data.zip"',
        },
      });
    await downloadMyData(client().queryClient, toast);
    expect(saved).toEqual(['ABCD-1234-data.zip']);
    expect(toast.show).not.toHaveBeenCalled();
  });

  it('shows a refusal as a toast in the server’s words, and saves nothing', async () => {
    answer = () =>
      new Response(JSON.stringify({ message: serverMessages.tooManyRequests }), { status: 429 });
    await downloadMyData(client().queryClient, toast);
    expect(saved).toEqual([]);
    expect(toast.show).toHaveBeenCalledWith({
      title: rightsText.downloadError,
      description: serverMessages.tooManyRequests,
      severity: 'error',
    });
  });

  it('hands a 401 to the central handler, with no toast', async () => {
    answer = () => new Response(JSON.stringify({ message: 'x' }), { status: 401 });
    const { queryClient, onUnauthorized } = client();
    await downloadMyData(queryClient, toast);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(toast.show).not.toHaveBeenCalled();
  });
});
