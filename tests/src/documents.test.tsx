// @vitest-environment jsdom
/**
 * The file question in the app (SPEC 4.4, 4.6, 5.6): the whole app (router, layout, documents
 * feature, interactive renderers) on Final Steps, logged in, against a small in-memory stand-in of
 * the server's document calls (fetch is mocked here only).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONVERSION_POLL_MS,
  SUBMITTED_CODE,
  documentMessages,
  serverMessages,
  type ConversionResponse,
  type DocumentAnswers,
} from '../../contract';
import { notices } from '../../contract/words';
import { namedFileProblem } from '../../src/features/documents/documentsText';
import { createQueryClient } from '../../src/api/queryClient';
import { leaveApplication } from '../../src/features/application/session/routing';
import { createAppRouter } from '../../src/router';
import { INDICATOR_COOKIE } from '../../src/session/cookies';
import { installDomShims } from './renderWithRouter';
import { closeToast } from './closeToast';

const KEY = 'transcript_file';
const LABEL = 'Unofficial Transcript';
const CONVERSION = `/api/pdf/document-answer/${KEY}`;
const UPLOAD_URL = '/api/upload/test';
const AXE_OPTIONS: axe.RunOptions = {
  rules: { region: { enabled: false }, 'color-contrast': { enabled: false } },
};

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly at: number;
}

/** The server's document state, and what the next calls answer. */
interface Fake {
  files: DocumentAnswers;
  conversion: ConversionResponse;
  /** Statuses the next conversion GETs answer, in order (then `conversion` stays). */
  script: ConversionResponse[];
  tabs: Record<string, string>;
  /** Calls that fail: a status (with a "refused …" message), or a status and the body to answer. */
  failures: Partial<Record<string, number | { status: number; body: unknown }>>;
  calls: Call[];
}

let fake: Fake;

const status = (s: ConversionResponse['status'], message = ''): ConversionResponse => ({
  status: s,
  message,
});

function json(body: unknown, statusCode = 200) {
  return new Response(JSON.stringify(body), {
    status: statusCode,
    headers: { 'content-type': 'application/json' },
  });
}

function installServer(initial: Partial<Fake> = {}) {
  fake = {
    files: {},
    conversion: status('NOT_ANSWERED'),
    script: [],
    tabs: { transcript: 'upload' },
    failures: {},
    calls: [],
    ...initial,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      const method = init?.method ?? 'GET';
      const body =
        typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : (init?.body ?? null);
      fake.calls.push({ method, path, body, at: Date.now() });
      const failure = fake.failures[`${method} ${path}`];
      if (typeof failure === 'number')
        return json({ message: `refused ${method} ${path}` }, failure);
      if (failure) return json(failure.body, failure.status);
      switch (`${method} ${path}`) {
        case 'GET /api/profile':
          return json({
            answer: Object.keys(fake.files).length > 0 ? { [KEY]: 'ANSWERED' } : {},
            document_answer: fake.files,
            username: 'applicant@example.com',
            last_page: '/final-steps',
            successful_login: [{ at: 'a' }, { at: 'b' }, { at: 'c' }],
            web_status: [{ web_status: 'started' }],
          });
        case 'GET /api/add-another':
          return json({});
        case 'GET /api/tabs':
          return json(fake.tabs);
        case 'PUT /api/tabs':
          fake.tabs = { transcript: (body as { chosen_tab: string }).chosen_tab };
          return json({});
        case 'GET /api/document-answer':
          return json(fake.files);
        case 'DELETE /api/document-answer/transcript_file':
          fake.files = {};
          return json({});
        case `GET ${CONVERSION}`:
          fake.conversion = fake.script.shift() ?? fake.conversion;
          return json(fake.conversion);
        case `POST ${CONVERSION}`:
          fake.conversion = status('UNPROCESSED');
          return json({}, 202);
        case `DELETE ${CONVERSION}`:
          fake.conversion = status('NOT_ANSWERED');
          return json({});
        case 'POST /api/presigned-url':
          return json({
            url: UPLOAD_URL,
            fields: { key: 'northfield/u1/transcript_file/1', policy: 'p' },
          });
        case `POST ${UPLOAD_URL}`:
          return new Response(null, { status: 204 });
        case 'PUT /api/answer':
          return json({ message: 'Saved.' });
        default:
          return json({});
      }
    }),
  );
}

const callsTo = (method: string, path: string) =>
  fake.calls.filter((call) => call.method === method && call.path === path);

/** The router of the test running: its session (and its autosave timers) outlives the render. */
let router: ReturnType<typeof createAppRouter> | null = null;

function renderApp() {
  window.history.replaceState(null, '', '/final-steps');
  const queryClient = createQueryClient(vi.fn());
  router = createAppRouter(queryClient);
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, queryClient, user: userEvent.setup({ pointerEventsCheck: 0 }) };
}

/** The question once its code has loaded (until then only its frame, with no controls, is shown). */
const question = () =>
  waitFor(
    () => {
      const group = screen.getByRole('group', { name: /Unofficial Transcript/ });
      expect(group.getAttribute('data-file')).not.toBe('loading');
      return group;
    },
    { timeout: 5000 },
  );
const fileInput = () => document.querySelector<HTMLInputElement>(`input[type=file][name=${KEY}]`)!;

function choose(...files: File[]) {
  fireEvent.change(fileInput(), { target: { files } });
}

const pdf = (name = 'transcript.pdf', size = 12_800) =>
  new File([new Uint8Array(size)], name, { type: 'application/pdf' });

beforeEach(() => {
  installDomShims();
  document.cookie = `${INDICATOR_COOKIE}=1; path=/`;
});

afterEach(() => {
  cleanup();
  // Leaving the page, as the browser would: no save of this test may reach a later one's stubs.
  if (router) leaveApplication(router.options.context);
  router = null;
  vi.unstubAllGlobals();
  document.cookie = `${INDICATOR_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  sessionStorage.clear();
});

describe('file question: no file and the checks of SPEC 5.6', () => {
  it('offers "Choose file" (allowed types only) and refuses each bad file before any upload', async () => {
    installServer();
    renderApp();
    const group = await question();
    await within(group).findByRole('button', { name: 'Choose file' });
    expect(fileInput().accept).toBe('.png,.jpeg,.jpg,.pdf,.docx');
    expect(fileInput().multiple).toBe(false);

    // Each refusal names its file (D165), before SPEC 5.6's sentence; two files have no one name.
    const long = 'a-name-that-is-too-long-for-us.pdf';
    const cases: [File[], string][] = [
      [[pdf('big.pdf', 1_048_577)], namedFileProblem('big.pdf', documentMessages.tooLarge)],
      [[pdf('notes.txt')], namedFileProblem('notes.txt', documentMessages.wrongType)],
      [[pdf('setup.exe')], namedFileProblem('setup.exe', documentMessages.wrongType)],
      [[pdf(long)], namedFileProblem(long, documentMessages.nameTooLong)],
      [[pdf('empty.pdf', 0)], namedFileProblem('empty.pdf', documentMessages.empty)],
      [[pdf('one.pdf'), pdf('two.pdf')], documentMessages.oneFile],
    ];
    for (const [files, message] of cases) {
      choose(...files);
      await within(await question()).findByText(
        message,
        { selector: 'li span' },
        { timeout: 3000 },
      );
      const button = within(await question()).getByRole('button', { name: 'Choose file' });
      expect(button.getAttribute('aria-invalid')).toBe('true');
      expect(button.getAttribute('aria-describedby')).toContain(`${KEY}--errors`);
    }
    // 32 characters exactly and 1 MB exactly are fine: they go on to the upload.
    expect('a-name-that-is-exactly-32-ch.pdf').toHaveLength(32);
    expect(callsTo('POST', '/api/presigned-url')).toHaveLength(0);
    choose(pdf('a-name-that-is-exactly-32-ch.pdf', 1_048_576));
    await waitFor(() => expect(callsTo('POST', '/api/presigned-url')).toHaveLength(1));
  });
});

describe('file question: the upload chain of SPEC 4.4', () => {
  it('uploads, converts (polling every 2 s), answers the question and lists "name (size)"', async () => {
    installServer({ script: [status('NOT_ANSWERED'), status('IN_PROGRESS'), status('COMPLETED')] });
    const { queryClient } = renderApp();
    const group = await question();
    await within(group).findByRole('button', { name: 'Choose file' });
    // The cache names of SPEC 7.2 (what is invalidated to refresh the document data).
    expect(queryClient.getQueryData(['document-answer'])).toEqual({});
    expect(queryClient.getQueryData(['doc-conversion', KEY])).toMatchObject({
      status: 'NOT_ANSWERED',
    });
    fake.files = {};
    choose(pdf('transcript.pdf', 12_800));
    await within(group).findByText(/Uploading transcript\.pdf|Converting transcript\.pdf/);

    // Presigned url, then the multipart POST with every field and the file, then the conversion.
    await waitFor(() => expect(callsTo('POST', CONVERSION)).toHaveLength(1));
    expect(callsTo('POST', '/api/presigned-url')[0]?.body).toEqual({ answer_key: KEY });
    const upload = callsTo('POST', UPLOAD_URL)[0]?.body as FormData;
    expect(upload).toBeInstanceOf(FormData);
    expect(upload.get('key')).toBe('northfield/u1/transcript_file/1');
    expect(upload.get('policy')).toBe('p');
    expect((upload.get('file') as File).name).toBe('transcript.pdf');
    expect([...upload.keys()].at(-1)).toBe('file');
    expect(callsTo('POST', CONVERSION)[0]?.body).toEqual({
      file_key: 'northfield/u1/transcript_file/1',
      file_name: 'transcript.pdf',
    });
    expect(within(group).getByRole('status').textContent).toBe('Converting transcript.pdf…');
    expect(group.getAttribute('aria-busy')).toBe('true');

    // The converted file becomes a document answer when the poll sees COMPLETED.
    fake.files = { [KEY]: { file_name: 'transcript.pdf', file_size: 12_800 } };
    await within(group).findByText('transcript.pdf (12.5 kB)', {}, { timeout: 8000 });
    const polls = callsTo('GET', CONVERSION).map((call) => call.at);
    const afterPost = polls.slice(-2);
    expect(afterPost[1]! - afterPost[0]!).toBeGreaterThanOrEqual(CONVERSION_POLL_MS - 100);
    expect(within(group).getByRole('button', { name: 'Delete transcript.pdf' })).toBeTruthy();
    // No more polling once COMPLETED.
    const count = callsTo('GET', CONVERSION).length;
    await new Promise((resolve) => setTimeout(resolve, CONVERSION_POLL_MS + 300));
    expect(callsTo('GET', CONVERSION)).toHaveLength(count);
  }, 20_000);

  it('a failed conversion clears the answer and shows the toast; closing it deletes the conversion', async () => {
    const reason = namedFileProblem('locked.pdf', documentMessages.pdfEncrypted);
    installServer({
      script: [status('NOT_ANSWERED'), status('FAILED', documentMessages.pdfEncrypted)],
    });
    const { user } = renderApp();
    const group = await question();
    await within(group).findByRole('button', { name: 'Choose file' });
    choose(pdf('locked.pdf'));
    const toast = await screen.findByText(
      `Error uploading file for ${LABEL}. ${reason}`,
      {},
      { timeout: 8000 },
    );
    const toastRoot = toast.closest('li') as HTMLElement;
    expect(within(toastRoot).getByText('Error')).toBeTruthy();
    // The reason stays with the question after the toast has gone.
    expect(within(group).getByText(reason, { selector: 'li span' })).toBeTruthy();
    expect(callsTo('DELETE', CONVERSION)).toHaveLength(0);
    await closeToast(user, toastRoot);
    await waitFor(() => expect(callsTo('DELETE', CONVERSION)).toHaveLength(1));
    expect(within(group).getByRole('button', { name: 'Choose file' })).toBeTruthy();
  }, 20_000);

  it('a failure found on load names its file under the question, without a toast (D173)', async () => {
    const reason = namedFileProblem('locked.pdf', documentMessages.pdfEncrypted);
    installServer({
      script: [{ ...status('FAILED', documentMessages.pdfEncrypted), file_name: 'locked.pdf' }],
    });
    renderApp();
    await screen.findByText(reason, { selector: 'li span' }, { timeout: 10_000 });
    const group = await question();
    expect(screen.queryByText(`Error uploading file for ${LABEL}. ${reason}`)).toBeNull();
    expect(within(group).getByRole('button', { name: 'Choose file' })).toBeTruthy();
  }, 20_000);

  it('a refused upload (any failure in the chain) shows the same toast with the server message', async () => {
    installServer({ failures: { 'POST /api/presigned-url': 400 } });
    renderApp();
    const group = await question();
    await within(group).findByRole('button', { name: 'Choose file' });
    choose(pdf('t.pdf'));
    const reason = namedFileProblem('t.pdf', 'refused POST /api/presigned-url');
    await screen.findByText(`Error uploading file for ${LABEL}. ${reason}`);
    expect(within(await question()).getByText(reason, { selector: 'li span' })).toBeTruthy();
    expect(callsTo('POST', UPLOAD_URL)).toHaveLength(0);
    expect(callsTo('POST', CONVERSION)).toHaveLength(0);
  });
});

describe('file question: a file present, and the Delete File modal', () => {
  const present = () =>
    installServer({
      files: { [KEY]: { file_name: 'grades.docx', file_size: 300 } },
      conversion: status('COMPLETED'),
    });

  it('Cancel keeps the file; Delete removes the document answer and the conversion', async () => {
    present();
    const { user, container } = renderApp();
    const group = await question();
    await within(group).findByText('grades.docx (300 bytes)');
    expect((await axe.run(container, AXE_OPTIONS)).violations).toEqual([]);

    await user.click(within(group).getByRole('button', { name: 'Delete grades.docx' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete File' });
    expect(within(dialog).getByText('Are you sure you want to delete your file?')).toBeTruthy();
    expect((await axe.run(document.body, AXE_OPTIONS)).violations).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(group).getByText('grades.docx (300 bytes)')).toBeTruthy();
    expect(fake.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);

    await user.click(within(group).getByRole('button', { name: 'Delete grades.docx' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete File' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const choose = await within(group).findByRole('button', { name: 'Choose file' });
    expect(callsTo('DELETE', `/api/document-answer/${KEY}`)).toHaveLength(1);
    expect(callsTo('DELETE', CONVERSION)).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(choose));
  });
});

describe('file question: a submitted application keeps its file (D69)', () => {
  const submitted = {
    status: 409,
    body: { message: serverMessages.alreadySubmitted, code: SUBMITTED_CODE },
  };
  const presentAndFrozen = (failing: string[]) =>
    installServer({
      files: { [KEY]: { file_name: 'grades.docx', file_size: 300 } },
      conversion: status('COMPLETED'),
      failures: Object.fromEntries(failing.map((call) => [call, submitted])),
    });

  it('a refused replacement says why and keeps the earlier file; closing the toast deletes nothing', async () => {
    presentAndFrozen(['POST /api/presigned-url']);
    const { user } = renderApp();
    const group = await question();
    await within(group).findByText('grades.docx (300 bytes)');
    choose(pdf('newer.pdf'));
    const toast = await screen.findByText(
      `Error uploading file for ${LABEL}. ${namedFileProblem('newer.pdf', serverMessages.alreadySubmitted)}`,
    );
    await closeToast(user, toast.closest('li') as HTMLElement);
    await within(await question()).findByText('grades.docx (300 bytes)');
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(fake.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
  });

  it('a refused deletion says why and keeps the file', async () => {
    presentAndFrozen([`DELETE /api/document-answer/${KEY}`]);
    const { user } = renderApp();
    const group = await question();
    await within(group).findByText('grades.docx (300 bytes)');
    await user.click(within(group).getByRole('button', { name: 'Delete grades.docx' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete File' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText(serverMessages.alreadySubmitted);
    expect(within(group).getByText('grades.docx (300 bytes)')).toBeTruthy();
  });
});

describe('tabs with files (SPEC 4.6)', () => {
  const otherTab = () => screen.findByRole('tab', { name: 'My school will send it' });

  it('refuses the switch with "File Upload in Progress" while the conversion is in progress', async () => {
    installServer({ conversion: status('IN_PROGRESS') });
    const { user } = renderApp();
    const group = await question();
    await within(group).findByText('Converting your file…');
    await user.click(await otherTab());
    const dialog = await screen.findByRole('dialog', { name: 'File Upload in Progress' });
    expect(
      within(dialog).getByText('Please wait until the file upload has completed.'),
    ).toBeTruthy();
    expect((await axe.run(document.body, AXE_OPTIONS)).violations).toEqual([]);
    expect(callsTo('PUT', '/api/tabs')).toHaveLength(0);
    expect(fake.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe(
      'Upload an unofficial transcript',
    );
  });

  it('deletes the conversion, then the document answer, then saves the tab and clears the key', async () => {
    installServer({
      files: { [KEY]: { file_name: 'grades.pdf', file_size: 2048 } },
      conversion: status('COMPLETED'),
    });
    const { user } = renderApp();
    await within(await question()).findByText('grades.pdf (2 kB)');
    await user.click(await otherTab());
    await waitFor(() => expect(callsTo('PUT', '/api/tabs')).toHaveLength(1));
    const order = fake.calls
      .filter((call) => call.method !== 'GET')
      .map((call) => `${call.method} ${call.path}`);
    expect(order.indexOf(`DELETE ${CONVERSION}`)).toBeLessThan(
      order.indexOf(`DELETE /api/document-answer/${KEY}`),
    );
    expect(order.indexOf(`DELETE /api/document-answer/${KEY}`)).toBeLessThan(
      order.indexOf('PUT /api/tabs'),
    );
    expect(callsTo('PUT', '/api/tabs')[0]?.body).toEqual({
      tab_id: 'transcript',
      chosen_tab: 'counselor',
    });
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('My school will send it');
    expect(screen.queryByRole('group', { name: /Unofficial Transcript/ })).toBeNull();
  });

  it('a failed deletion shows "Error handling tabs for <default tab>"; closing it refetches', async () => {
    installServer({
      files: { [KEY]: { file_name: 'grades.pdf', file_size: 2048 } },
      conversion: status('COMPLETED'),
      failures: { [`DELETE /api/document-answer/${KEY}`]: 500 },
    });
    const { user } = renderApp();
    await within(await question()).findByText('grades.pdf (2 kB)');
    await user.click(await otherTab());
    const toast = await screen.findByText(notices.tabsFailed('upload'));
    expect(callsTo('PUT', '/api/tabs')).toHaveLength(0);
    const before = callsTo('GET', '/api/document-answer').length;
    await closeToast(user, toast.closest('li') as HTMLElement);
    await waitFor(() =>
      expect(callsTo('GET', '/api/document-answer').length).toBeGreaterThan(before),
    );
    await act(async () => {});
  });
});
