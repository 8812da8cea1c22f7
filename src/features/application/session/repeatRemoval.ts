/**
 * Adding an instance of a repeat (SPEC 4.8), and removing an added one (D148): the runtime moves
 * the later instances' answers down; here the count and the answers change on screen at once, then both are saved (the answers
 * first, so a reload or another tab never shows an instance the count no longer covers).
 */
import type { QueryClient } from '@tanstack/react-query';
import { canRemoveInstance, instanceAnswered, removeInstance, type Definition } from '#runtime';
import type { RepeatActions } from '#renderers/react/index.ts';
import type { AnswerValue } from '#renderers/registry.ts';
import { notices, repeatText } from '#contract/words.ts';
import type { ToastOptions } from '#src/chrome/toast.tsx';
import { putAddAnotherMutation } from '../api/addAnother';
import { mutate } from '../api/mutate';
import type { FormAnswerSource } from '../answerSource';
import { setAddAnotherCount, type ApplicationStore } from './state';

export interface RepeatRemovalPorts {
  readonly definition: Definition;
  readonly store: ApplicationStore;
  readonly answers: FormAnswerSource;
  readonly queryClient: QueryClient;
  readonly saveDirty: () => Promise<unknown>;
  readonly toast: (toast: ToastOptions) => void;
}

export function repeatActions(ports: RepeatRemovalPorts): RepeatActions {
  const { definition, store, answers, queryClient } = ports;
  return {
    text: repeatText,
    canRemove: (repeatId, number) => canRemoveInstance(definition, repeatId, number),
    answered: (repeatId, number) => instanceAnswered(definition, repeatId, number, answers.all()),
    remove(repeatId, number) {
      const removal = removeInstance(
        definition,
        repeatId,
        number,
        answers.all(),
        store.state.viewState.addAnother ?? {},
      );
      const { buttonId, count } = removal;
      setAddAnotherCount(store, buttonId, count);
      answers.setAnswers(removal.answers as Record<string, AnswerValue>);
      ports
        .saveDirty()
        .then(() => mutate(queryClient, putAddAnotherMutation(queryClient), { buttonId, count }))
        .catch(() =>
          ports.toast({
            title: notices.errorTitle,
            description: repeatText.removeFailed,
            severity: 'error',
          }),
        );
    },
  };
}

/** SPEC 4.8: one more instance, saved; taken back if the save fails. */
export function addInstance(
  ports: Pick<RepeatRemovalPorts, 'store' | 'queryClient' | 'toast'>,
  buttonId: string,
): void {
  const { store, queryClient } = ports;
  const count = (store.state.viewState.addAnother[buttonId] ?? 1) + 1;
  setAddAnotherCount(store, buttonId, count);
  mutate(queryClient, putAddAnotherMutation(queryClient), { buttonId, count }).catch(() => {
    setAddAnotherCount(store, buttonId, count - 1);
    ports.toast({
      title: notices.errorTitle,
      description: notices.addAnotherFailed(buttonId),
      severity: 'error',
    });
  });
}
