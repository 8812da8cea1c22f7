// @vitest-environment jsdom
/**
 * The PDF copy's download link (SPEC 2.4, 4.5, 8): disabled with a loading indicator while the PDF
 * is prepared, polled every second and then every 10 minutes, a link once ready, a click that
 * refetches and downloads from the fresh URL, and the FAILED toast. fetch is mocked here only.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PDF_POLL_PENDING_MS,
  PDF_POLL_SETTLED_MS,
  pdfMessages,
  type ApplicationPdfResponse,
} from '../../contract';
import { notices } from '../../contract/words';
import { createQueryClient } from '../../src/api/queryClient';
import { ToastProvider } from '../../src/chrome/toast';
import { PdfDownloadLink } from '../../src/features/application-pdf/PdfDownloadLink';
import { installDomShims } from './renderWithRouter';

const text = notices.pdfDownload;
const pending: ApplicationPdfResponse = {
  status: 'IN_PROGRESS',
  url: null,
  message: pdfMessages.inProgress,
};
const ready = (n: number): ApplicationPdfResponse => ({
  status: 'COMPLETED',
  url: `/api/pdf/file?download=grant-${n}`,
  message: pdfMessages.completed,
});
const failed: ApplicationPdfResponse = { status: 'FAILED', url: null, message: pdfMessages.failed };

/** What the next GET /api/pdf calls answer, in order; the last one repeats. */
let script: (ApplicationPdfResponse | 'network-error')[];
let calls: number[];

function mockServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      expect(String(input)).toBe('/api/pdf');
      calls.push(Date.now());
      const next = script.length > 1 ? script.shift() : script[0];
      if (next === 'network-error') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(next), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

function renderLink(download = vi.fn()) {
  const client = createQueryClient(() => {});
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <main>
          <PdfDownloadLink download={download} />
        </main>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return download;
}

beforeEach(() => {
  installDomShims();
  calls = [];
  mockServer();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the PDF download link', () => {
  it('is disabled with a loading indicator while the PDF is prepared, then becomes a link', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    script = [pending, pending, ready(1)];
    renderLink();
    const disabled = await screen.findByRole('link', { name: text.link });
    expect(disabled.getAttribute('aria-disabled')).toBe('true');
    expect(disabled.hasAttribute('href')).toBe(false);
    expect(screen.getByRole('status').textContent).toBe(text.preparing);
    expect(disabled.querySelector('[aria-hidden="true"]')).not.toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(PDF_POLL_PENDING_MS));
    await act(() => vi.advanceTimersByTimeAsync(PDF_POLL_PENDING_MS));
    const link = await screen.findByRole('link', { name: text.link });
    await waitFor(() => expect(link.getAttribute('href')).toBe(ready(1).url));
    expect(link.hasAttribute('aria-disabled')).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(calls).toHaveLength(3);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(PDF_POLL_PENDING_MS);
    expect(calls[1]! - calls[0]!).toBeLessThan(2 * PDF_POLL_PENDING_MS);
  });

  it('polls every 10 minutes once ready, not every second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    script = [ready(1)];
    renderLink();
    await screen.findByRole('link', { name: text.link });
    await act(() => vi.advanceTimersByTimeAsync(PDF_POLL_SETTLED_MS - 1000));
    expect(calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(calls).toHaveLength(2);
  });

  it('a click refetches the status and downloads from the URL that answer gives', async () => {
    script = [ready(1), ready(2)];
    const download = renderLink();
    const link = await screen.findByRole('link', { name: text.link });
    await waitFor(() => expect(link.getAttribute('href')).toBe(ready(1).url));
    fireEvent.click(link);
    await waitFor(() => expect(download).toHaveBeenCalledWith(ready(2).url));
    expect(calls).toHaveLength(2);
  });

  it('shows the error toast when the PDF could not be prepared, and a click tries again', async () => {
    script = [failed, pending];
    const download = renderLink();
    expect(await screen.findByText(text.failed)).toBeTruthy();
    expect(screen.getByText(pdfMessages.failed)).toBeTruthy();
    const retry = screen.getByRole('button', { name: text.retry });
    fireEvent.click(retry);
    expect(
      (await screen.findByRole('link', { name: text.link })).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(download).not.toHaveBeenCalled();
    expect(screen.getAllByText(text.failed)).toHaveLength(1);
  });

  it('treats a failed status read like a failed PDF: the toast, no error screen', async () => {
    script = ['network-error'];
    renderLink();
    expect(await screen.findByText(text.failed)).toBeTruthy();
    expect(screen.getByRole('button', { name: text.retry })).toBeTruthy();
  });

  it('has no axe violations while preparing and when ready', async () => {
    script = [pending];
    renderLink();
    await screen.findByRole('link', { name: text.link });
    const options: axe.RunOptions = { rules: { 'color-contrast': { enabled: false } } };
    expect((await axe.run(document.body, options)).violations).toEqual([]);
    cleanup();
    script = [ready(1)];
    renderLink();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: text.link }).hasAttribute('href')).toBe(true),
    );
    expect((await axe.run(document.body, options)).violations).toEqual([]);
  });
});
