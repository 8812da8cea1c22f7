// @vitest-environment jsdom
/**
 * Document state lives in the application's one store (D24): the file renderers read it through
 * the app's DocumentSource, so one question's change re-renders that question only, and a change
 * elsewhere in the store (save state, errors) re-renders no file question. Counted per renderer.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { Profiler, useMemo, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentText } from '../../contract/words';
import { interactiveRenderers } from '../../renderers/interactive';
import {
  FormProvider,
  PageOutlet,
  staticAnswers,
  usePageView,
  type DocumentState,
} from '../../renderers/react';
import type { RendererSet } from '../../renderers/registry';
import { loadDefinition } from '../../runtime';
import { storeDocumentSource } from '../../src/features/application/session/documentSource';
import {
  createApplicationStore,
  errorSource,
  patch,
  setDocuments,
  setErrors,
} from '../../src/features/application/session/state';

const definition = loadDefinition({
  id: 'documents',
  title: 'Two files',
  version: 1,
  defaultRoute: '/files',
  optionLists: {},
  pages: [
    {
      id: 'files',
      path: '/files',
      title: 'Files',
      children: [
        { kind: 'file', key: 'transcript', label: 'Transcript' },
        { kind: 'file', key: 'essay', label: 'Essay' },
      ],
    },
  ],
});

const renders = new Map<string, number>();
const countingRenderers = {
  ...interactiveRenderers,
  // A Profiler counts every commit inside the question, its store subscriber included.
  file: (props: { view: { key: string } }) => {
    const File = interactiveRenderers.file as (p: typeof props) => ReactNode;
    const key = props.view.key;
    return (
      <Profiler id={key} onRender={() => renders.set(key, (renders.get(key) ?? 0) + 1)}>
        <File {...props} />
      </Profiler>
    );
  },
} as unknown as RendererSet;

const present = (name: string, size: number): DocumentState => ({
  phase: 'present',
  file: { name, size },
  problem: null,
});

function setup() {
  const store = createApplicationStore({
    webStatus: 'started',
    viewState: { addAnother: {}, tabs: {}, triggers: {} },
  });
  const documents = storeDocumentSource(store, {
    accept: '.pdf',
    text: documentText,
    fallback: { phase: 'loading', file: null, problem: null },
  });
  const answers = staticAnswers({});
  function Page() {
    const page = usePageView(definition, 'files', answers, {});
    const context = useMemo(
      () => ({
        renderers: countingRenderers,
        answers,
        errors: errorSource(store),
        anonymous: false,
        actions: {},
        documents,
      }),
      [],
    );
    return <FormProvider value={context}>{page ? <PageOutlet page={page} /> : null}</FormProvider>;
  }
  render(<Page />);
  return { store, documents };
}

describe('document state in the application store', () => {
  afterEach(() => {
    cleanup();
    renders.clear();
  });

  it('re-renders only the question whose state changed', async () => {
    const { store } = setup();
    // Until the documents feature writes, both read the fallback.
    expect(await screen.findAllByText('Checking for your file…')).toHaveLength(2);
    act(() =>
      setDocuments(store, { transcript: present('a.pdf', 2048), essay: present('b.pdf', 10) }),
    );
    await screen.findByText('a.pdf (2 kB)');
    renders.clear();

    act(() =>
      setDocuments(store, { transcript: present('c.pdf', 4096), essay: present('b.pdf', 10) }),
    );
    expect(screen.getByText('c.pdf (4 kB)')).toBeTruthy();
    expect(renders.get('transcript')).toBe(1);
    expect(renders.has('essay')).toBe(false);
  });

  it('re-renders no file question for an equal state, a save state or another key’s errors', async () => {
    const { store } = setup();
    act(() =>
      setDocuments(store, { transcript: present('a.pdf', 2048), essay: present('b.pdf', 10) }),
    );
    await screen.findByText('b.pdf (10 bytes)');
    const before = store.state.documents;
    renders.clear();

    act(() => {
      setDocuments(store, { transcript: present('a.pdf', 2048), essay: present('b.pdf', 10) });
      patch(store, { saveState: 'saving' });
      setErrors(store, { other: ['Something else is wrong.'] });
    });
    expect(store.state.documents).toBe(before);
    expect(renders.size).toBe(0);
  });

  it('forwards the applicant’s actions once the documents feature hands them over', () => {
    const { documents } = setup();
    const file = new File(['x'], 'x.pdf');
    documents.choose('transcript', [file]);
    const choose = vi.fn();
    const requestDelete = vi.fn();
    documents.setActions({ choose, requestDelete });
    documents.choose('transcript', [file]);
    documents.requestDelete('essay');
    documents.setActions(null);
    documents.requestDelete('essay');
    expect(choose.mock.calls).toEqual([['transcript', [file]]]);
    expect(requestDelete.mock.calls).toEqual([['essay']]);
  });
});
