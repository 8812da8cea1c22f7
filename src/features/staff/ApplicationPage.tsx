/**
 * `/staff/applications/$id`: one application as the PDF shows it (the print set), its documents when
 * it has any (each opens in the viewer beside it, D174), the PDF download, its service links and
 * (admins) its audit log.
 */
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import {
  APPLICATION_STATUS_LABELS,
  staffApplication,
  type StaffApplication,
} from '#contract/staff.ts';
import { labelOf } from '#runtime';
import { definitionOfRead } from '../../tenant/tenantData';
import { PrintApplication } from '#renderers/print/application.tsx';
import { usePrintStylesheet } from '../../components/usePrintStylesheet';
import { download, staffCall } from './api';
import { DocumentViewer, documentAddress, type ViewedDocument } from './DocumentViewer';
import viewerStyles from './documentViewer.module.css';
import { ServiceLinks } from './ServiceLinks';
import { useMe } from './session';
import styles from './staff.module.css';
import { Failure, localTime, Notice, useStaffTitle } from './ui';

const route = getRouteApi('/staff/applications/$id');

export function ApplicationPage() {
  const { id } = route.useParams();
  const router = useRouter();
  const isAdmin = useMe().data?.role === 'admin';
  const application = useQuery({
    queryKey: ['staff', 'application', id],
    queryFn: () => staffCall(staffApplication, `/applications/${id}`),
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [viewed, setViewed] = useState<(ViewedDocument & { of: string }) | null>(null);
  // Another application (or one without that document any more) shows no viewer.
  const shown =
    viewed && viewed.of === id && application.data?.document_answer?.[viewed.key] ? viewed : null;
  const documentLinks = useRef(new Map<string, HTMLAnchorElement>());
  usePrintStylesheet();
  // A plain click opens the viewer; a modified one (new tab, window) keeps the link's own behaviour.
  const view = (event: MouseEvent, document: ViewedDocument) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    setViewed({ ...document, of: id });
  };
  const closeViewer = () => {
    const link = shown ? documentLinks.current.get(shown.key) : undefined;
    setViewed(null);
    link?.focus();
  };
  const getPdf = () => {
    setBusy(true);
    void download(`/applications/${id}/pdf`, `${application.data?.reference ?? 'application'}.pdf`)
      .then(setNotice)
      .finally(() => setBusy(false));
  };
  const documents = Object.entries(application.data?.document_answer ?? {});
  const definition = useMemo(() => definitionOfRead(application.data ?? {}), [application.data]);
  // Back returns to the list as it was (its search and page) when the list is where we came from.
  const canGoBack = router.history.canGoBack();
  useStaffTitle(application.data ? `Application of ${whose(application.data)}` : 'Application');
  return (
    <section aria-labelledby="staff-application">
      <div className={styles.bar}>
        {canGoBack ? (
          <button type="button" className={styles.secondary} onClick={() => router.history.back()}>
            Back to the list
          </button>
        ) : (
          <Link to="/staff" className={styles.secondary}>
            Back to the list
          </Link>
        )}
        <button type="button" className={styles.primary} onClick={getPdf} disabled={busy}>
          Download the PDF
        </button>
        {isAdmin ? (
          <Link to="/staff/audit" search={{ applicant: id }} className={styles.secondary}>
            Its audit log
          </Link>
        ) : null}
      </div>
      <h1 id="staff-application" className={styles.title}>
        {application.data ? `Application of ${whose(application.data)}` : 'Application'}
      </h1>
      {application.data ? <Facts application={application.data} /> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <Failure error={application.error} />
      {application.data ? (
        <div className={shown ? viewerStyles.layout : undefined}>
          <div>
            {documents.length > 0 ? (
              <>
                <h2 className={styles.subtitle}>Documents</h2>
                <ul className={styles.documents}>
                  {documents.map(([key, file]) => (
                    <li key={key}>
                      <a
                        className={styles.link}
                        href={documentAddress(id, key)}
                        ref={(link) => {
                          if (link) documentLinks.current.set(key, link);
                          else documentLinks.current.delete(key);
                        }}
                        aria-current={shown?.key === key ? 'true' : undefined}
                        onClick={(event) =>
                          view(event, {
                            key,
                            name: labelOf(definition, key),
                            fileName: file.file_name,
                          })
                        }
                      >
                        {labelOf(definition, key)}
                      </a>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <ServiceLinks id={id} isAdmin={isAdmin} />
            <div className={styles.panel}>
              <PrintApplication
                definition={definition}
                answers={application.data.answer}
                tabs={application.data.tabs}
                documents={documents.map(([key]) => key)}
                headingLevel={2}
              />
            </div>
          </div>
          {shown ? <DocumentViewer id={id} document={shown} onClose={closeViewer} /> : null}
        </div>
      ) : null}
    </section>
  );
}

/** "Maria Gonzalez-Whitfield (Mari)"; the address when no name was given yet. */
function whose(application: StaffApplication): string {
  const name = application.name || application.email;
  return application.preferred_name ? `${name} (${application.preferred_name})` : name;
}

/** What the application is: its status, submission, reference, address and form version. */
function Facts({ application }: { application: StaffApplication }) {
  const draft = application.submitted_at === null;
  return (
    <>
      {draft ? (
        <p className={styles.draft} role="note">
          Draft: not submitted. What it shows may still change, and may not be valid yet.
        </p>
      ) : null}
      <dl className={styles.facts}>
        <dt>Status</dt>
        <dd>
          <span className={styles.status} data-status={application.status}>
            {APPLICATION_STATUS_LABELS[application.status]}
          </span>
        </dd>
        <dt>Submitted</dt>
        <dd>{draft ? 'Not yet' : localTime(application.submitted_at!)}</dd>
        <dt>Reference</dt>
        <dd>{application.reference}</dd>
        <dt>E-mail</dt>
        <dd>{application.email}</dd>
        {application.definition_version !== undefined ? (
          <>
            <dt>Form version</dt>
            <dd>{application.definition_version}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}
