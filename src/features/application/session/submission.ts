/**
 * Submitting (SPEC 4.1, 2.3): save what is unsaved, move a started application to validating,
 * validate; with errors, back to the first page with the summary in focus; else submit, and on to
 * the completion page. A server's field errors (422) show as the validation's would.
 */
import { serverMessages } from '#contract';
import { ServerError } from '#src/api/client.ts';
import { mutate } from '../api/mutate';
import { PROFILE_KEY } from '../api/profile';
import { submitRequest } from '../api/submit';
import { postWebStatusMutation } from '../api/webStatus';
import { runValidation, whileBusy, type ActionContext } from './actions';
import { patch, setErrors, type ApplicationStore } from './state';

/** The summary at `path` takes focus once the page shows. */
function focusSummaryOn(store: ApplicationStore, path: string): void {
  const { tick } = store.state.summaryFocus;
  patch(store, { summaryFocus: { path, tick: tick + 1 } });
}

export function submitApplication(context: ActionContext): Promise<void> {
  const { definition, store, queryClient, navigate } = context;
  const home = definition.defaultRoute;
  return whileBusy(store, async () => {
    await context.saveDirty();
    if (store.state.webStatus === 'started') {
      patch(store, { webStatus: 'validating' });
      await mutate(queryClient, postWebStatusMutation, 'validating');
    }
    const found = await runValidation(context);
    if (Object.keys(found).length > 0) {
      // The page then moves focus to the summary, which brings it into view.
      focusSummaryOn(store, home);
      return navigate({ to: home });
    }
    try {
      await mutate(queryClient, { mutationFn: submitRequest }, undefined);
    } catch (error) {
      if (error instanceof ServerError && error.status === 422 && error.fieldErrors) {
        setErrors(store, error.fieldErrors);
        focusSummaryOn(store, home);
        return navigate({ to: home });
      }
      throw error;
    }
    await mutate(queryClient, postWebStatusMutation, 'submitted');
    patch(store, { webStatus: 'submitted' });
    await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    await navigate({ to: '/completion', state: { successMessage: serverMessages.submitted } });
    context.page.scrollTop();
  });
}
