/**
 * Service-user mode (SPEC 2.9, 6): the whole application, read-only, drawn with the print set in
 * one view. No header, footer, account popover, navigation, buttons, modals or inactivity guard: this
 * is a root of its own, loaded on demand (main.tsx) so the applicant's first page does not carry it.
 */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Component, useEffect, useMemo, useState, type ReactNode } from 'react';
import { serviceMessages } from '#contract';
import { definitionOfRead } from '../../tenant/tenantData';
import { PrintApplication } from '#renderers/print/application.tsx';
import { UnauthorizedError } from '../../api/client';
import { ErrorScreen } from '../../chrome/ErrorScreen';
import { LoadingScreen } from '../../chrome/LoadingScreen';
import styles from '../../chrome/chrome.module.css';
import { usePrintStylesheet } from '../../components/usePrintStylesheet';
import { serviceDataQuery } from './api/serviceData';
import { forgetServiceToken } from './token';

/** An expired, tampered or foreign link (401): says so, and nothing else. */
export function ServiceLinkInvalid() {
  return (
    <main className={styles.screen}>
      <div className={styles.screenPanel} role="alert">
        <h1 className={styles.screenHeading}>{serviceMessages.tokenInvalid}</h1>
      </div>
    </main>
  );
}

class ServiceErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown) {
    if (error instanceof UnauthorizedError) forgetServiceToken();
  }
  override render() {
    if (this.state.error === null) return this.props.children;
    if (this.state.error instanceof UnauthorizedError) return <ServiceLinkInvalid />;
    return (
      <main>
        <ErrorScreen />
      </main>
    );
  }
}

function ServiceView({ token }: { token: string }) {
  const { data } = useQuery({ ...serviceDataQuery(token), throwOnError: true });
  usePrintStylesheet();
  const definition = useMemo(() => (data ? definitionOfRead(data) : null), [data]);
  useEffect(() => {
    if (definition) document.title = definition.title;
  }, [definition]);
  if (!data || !definition) {
    return (
      <main>
        <LoadingScreen />
      </main>
    );
  }
  return (
    <main>
      <PrintApplication
        definition={definition}
        answers={data.answer}
        tabs={data.tabs}
        documents={Object.keys(data.document_answer)}
      />
    </main>
  );
}

export function ServiceApp({ token }: { token: string }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            retry: false,
            staleTime: Infinity,
            gcTime: Infinity,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ServiceErrorBoundary>
        <ServiceView token={token} />
      </ServiceErrorBoundary>
    </QueryClientProvider>
  );
}
