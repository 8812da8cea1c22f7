/**
 * The document questions of the application (SPEC 4.4, 4.6), loaded on demand so the first page does
 * not carry it. It fetches the document answers ("document-answer") and every document question's
 * conversion ("doc-conversion", polled every 2 s while pending, from the moment it loads), runs the
 * upload chain (./uploadChain.ts), shows the failure toast and the modals (Delete File, File Upload in
 * Progress, and the smaller copy of a photo over the limit, D165), and writes each question's state
 * (./documentState.ts) through the host the layout gives it, where the file renderer reads it.
 */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { documentMessages, fileProblem, type ConversionResponse, type FileFacts } from '#contract';
import { notices } from '#contract/words.ts';
import type { DocumentState } from '#renderers/react/index.ts';
import { UnauthorizedError } from '../../api/client';
import { useToast } from '../../chrome/toast';
import type { DocumentsTabProps } from '../../components/documentsTab';
import {
  conversionKey,
  conversionQuery,
  deleteConversionRequest,
  isPending,
} from './api/conversion';
import { deleteDocumentAnswerRequest, documentAnswersQuery } from './api/documentAnswers';
import { DeleteFileDialog, UploadInProgressDialog } from './DocumentDialogs';
import { documentStateOf } from './documentState';
import { namedFileProblem, shrinkText } from './documentsText';
import { ShrinkDialog, type ShrinkOffer } from './ShrinkDialog';
import { offersShrink } from './shrinkRules';
import { isSubmittedRefusal, messageOf, questionLabel, sendFile } from './uploadChain';

const NOT_ANSWERED: ConversionResponse = {
  status: 'NOT_ANSWERED',
  message: documentMessages.notAnswered,
};
const UNPROCESSED: ConversionResponse = {
  status: 'UNPROCESSED',
  message: documentMessages.unprocessed,
};

const without = <T,>(map: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  if (!(key in map)) return map as Record<string, T>;
  const next = { ...map };
  delete next[key];
  return next;
};

export default function DocumentsFeature({
  host,
  keys,
  answers,
  saveAnswers,
  register,
}: DocumentsTabProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const files = useQuery(documentAnswersQuery);
  const conversions = useQueries({ queries: keys.map((key) => conversionQuery(key)) });
  /** Files on their way to the server (presigned url, upload, conversion request). */
  const [uploads, setUploads] = useState<Readonly<Record<string, FileFacts>>>({});
  /** The file sent last, named while it converts. */
  const [sent, setSent] = useState<Readonly<Record<string, FileFacts>>>({});
  /** Why the last file of a question was refused or failed. */
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});
  const [deleting, setDeleting] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  /** A photo over the limit, offered a smaller copy (D165). */
  const [offer, setOffer] = useState<ShrinkOffer | null>(null);
  const uploadsRef = useRef(uploads);
  uploadsRef.current = uploads;
  const sentRef = useRef(sent);
  sentRef.current = sent;

  const setConversion = useCallback(
    (key: string, data: ConversionResponse) => queryClient.setQueryData(conversionKey(key), data),
    [queryClient],
  );
  const refreshDocuments = useCallback(
    () => queryClient.invalidateQueries({ queryKey: documentAnswersQuery.queryKey }),
    [queryClient],
  );

  const deleteConversion = useMutation({ mutationFn: deleteConversionRequest });
  const deleteDocument = useMutation({
    mutationFn: async (key: string) => {
      await deleteDocumentAnswerRequest(key);
      await deleteConversionRequest(key);
    },
  });

  /**
   * SPEC 4.4: the failure toast, titled "Error" like every error toast (SPEC 2.7), with SPEC's
   * sentence and the reason (docs/decisions/ D35); closing it marks the error as seen and deletes
   * the conversion.
   */
  const showFailure = useCallback(
    (key: string, reason: string) => {
      toast.show({
        title: notices.errorTitle,
        description: notices.uploadFailedWhy(questionLabel(key), reason),
        severity: 'error',
        onClose: () =>
          deleteConversion.mutate(key, {
            onSuccess: () => setConversion(key, NOT_ANSWERED),
            onError: () => void queryClient.invalidateQueries({ queryKey: conversionKey(key) }),
          }),
      });
    },
    [toast, deleteConversion, setConversion, queryClient],
  );

  const upload = useMutation({
    mutationFn: ({ key, file }: { key: string; file: File }) => sendFile(key, file, saveAnswers),
    onMutate: ({ key, file }) => {
      const facts = { name: file.name, size: file.size };
      setUploads((map) => ({ ...map, [key]: facts }));
      setSent((map) => ({ ...map, [key]: facts }));
      setProblems((map) => without(map, key));
    },
    onSuccess: async (_data, { key }) => {
      // Polling starts at once; the interval keeps it going while the status is pending.
      setConversion(key, UNPROCESSED);
      await queryClient.invalidateQueries({ queryKey: conversionKey(key) });
    },
    onError: (error, { key, file }) => {
      if (error instanceof UnauthorizedError) return;
      const reason = namedFileProblem(file.name, messageOf(error));
      if (isSubmittedRefusal(error)) {
        // Nothing changed on the server: the answer and the earlier file stay; only say why.
        toast.show({
          title: notices.errorTitle,
          description: notices.uploadFailedWhy(questionLabel(key), reason),
          severity: 'error',
        });
        return;
      }
      answers.setAnswers({ [key]: '' });
      setProblems((map) => ({ ...map, [key]: reason }));
      showFailure(key, reason);
    },
    onSettled: (_data, _error, { key }) => setUploads((map) => without(map, key)),
  });

  const choose = useCallback(
    (key: string, files: readonly File[]) => {
      const file = files[0];
      if (!file || uploadsRef.current[key]) return;
      if (isPending(queryClient.getQueryData(conversionKey(key)))) return;
      // SPEC 4.4 state 2: the checks of SPEC 5.6 run before anything is sent.
      const problem = fileProblem(file, files.length);
      if (problem && offersShrink(file, files.length)) {
        setProblems((map) => without(map, key));
        setOffer({ key, photo: file });
        return;
      }
      if (problem) {
        const named = files.length === 1 ? namedFileProblem(file.name, problem) : problem;
        setProblems((map) => ({ ...map, [key]: named }));
        return;
      }
      upload.mutate({ key, file });
    },
    [queryClient, upload],
  );

  const acceptCopy = useCallback(
    ({ key }: ShrinkOffer, copy: File) => {
      setOffer(null);
      upload.mutate({ key, file: copy });
    },
    [upload],
  );
  const refuseCopy = useCallback(({ key, photo }: ShrinkOffer) => {
    setOffer(null);
    const why = `${documentMessages.tooLarge} ${shrinkText.failed}`;
    setProblems((map) => ({ ...map, [key]: namedFileProblem(photo.name, why) }));
  }, []);

  useEffect(() => {
    host.setActions({ choose, requestDelete: setDeleting });
    return () => host.setActions(null);
  }, [host, choose]);

  // Status changes: COMPLETED answers the question, FAILED clears it and shows why (SPEC 4.4 step 5).
  const seen = useRef<Record<string, string>>({});
  const statuses = conversions.map((conversion) => conversion.data?.status ?? '').join('|');
  useEffect(() => {
    keys.forEach((key, index) => {
      const data = conversions[index]?.data;
      if (!data) return;
      const previous = seen.current[key];
      if (previous === data.status) return;
      seen.current[key] = data.status;
      if (data.status === 'COMPLETED') {
        if (answers.getAnswer(key) !== 'ANSWERED') answers.setAnswers({ [key]: 'ANSWERED' });
        if (previous !== undefined) void refreshDocuments();
      } else if (data.status === 'FAILED') {
        answers.setAnswers({ [key]: '' });
        const why = data.message || documentMessages.conversionFailed;
        // The file this session sent, else the one the server names (a failure found on load, D173).
        const name = sentRef.current[key]?.name ?? data.file_name;
        const reason = name ? namedFileProblem(name, why) : why;
        setProblems((map) => ({ ...map, [key]: reason }));
        // A failure found on loading belongs to an earlier session (maybe on another device): the
        // question says why, but no toast pops up again at each login (D80).
        if (previous !== undefined) showFailure(key, reason);
      }
    });
    // `statuses` stands for the conversions' data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [statuses, keys, answers, refreshDocuments, showFailure]);

  // The renderer's view of each question.
  useEffect(() => {
    const next: Record<string, DocumentState> = {};
    keys.forEach((key, index) => {
      next[key] = documentStateOf(key, {
        uploading: uploads[key],
        sent: sent[key],
        conversion: conversions[index]?.data,
        files: files.data,
        filesPending: files.isPending,
        filesFetching: files.isFetching,
        problem: problems[key],
      });
    });
    host.setStates(next);
  });

  const leaveTab = useCallback(
    async (tabKeys: readonly string[]): Promise<boolean> => {
      const documentsState = queryClient.getQueryState(documentAnswersQuery.queryKey);
      const busy = tabKeys.some((key) => {
        const state = queryClient.getQueryState<ConversionResponse>(conversionKey(key));
        return (
          uploadsRef.current[key] !== undefined ||
          isPending(state?.data) ||
          state?.data === undefined ||
          documentsState?.data === undefined ||
          documentsState.fetchStatus === 'fetching'
        );
      });
      if (busy) {
        setRefused(true);
        return false;
      }
      const files = queryClient.getQueryData(documentAnswersQuery.queryKey) ?? {};
      for (const key of tabKeys) {
        const status = queryClient.getQueryData<ConversionResponse>(conversionKey(key))?.status;
        const hasFile =
          files[key] !== undefined ||
          answers.getAnswer(key) === 'ANSWERED' ||
          status === 'COMPLETED' ||
          status === 'FAILED';
        if (!hasFile) continue;
        try {
          await deleteConversion.mutateAsync(key);
        } catch (error) {
          if (error instanceof UnauthorizedError) throw error;
          setRefused(true);
          return false;
        }
        setConversion(key, NOT_ANSWERED);
        await deleteDocumentAnswerRequest(key);
        answers.setAnswers({ [key]: '' });
        setProblems((map) => without(map, key));
      }
      await refreshDocuments();
      return true;
    },
    [queryClient, answers, deleteConversion, setConversion, refreshDocuments],
  );

  useEffect(() => {
    register({ leaveTab });
    return () => register(null);
  }, [register, leaveTab]);

  const confirmDelete = () => {
    const key = deleting;
    if (!key) return;
    deleteDocument.mutate(key, {
      onSuccess: () => {
        answers.setAnswers({ [key]: '' });
        setConversion(key, NOT_ANSWERED);
        setProblems((map) => without(map, key));
        // invalidateQueries never rejects (a failed refetch stays in its query); the dialog closes
        // once the list is fresh.
        void refreshDocuments().then(() => setDeleting(null));
      },
      onError: (error) => {
        setDeleting(null);
        if (error instanceof UnauthorizedError) return;
        toast.show({ title: notices.errorTitle, description: messageOf(error), severity: 'error' });
      },
    });
  };

  return (
    <>
      <DeleteFileDialog
        deleting={deleting}
        pending={deleteDocument.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
      <UploadInProgressDialog open={refused} onOpenChange={setRefused} />
      <ShrinkDialog
        offer={offer}
        onAccept={acceptCopy}
        onCancel={() => setOffer(null)}
        onFailed={refuseCopy}
      />
    </>
  );
}
