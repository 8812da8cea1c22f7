import { visiblePage, type Answers } from '@admission-platform/form-runtime';
import {
  FormProvider,
  PageOutlet,
  staticAnswers,
  staticErrors,
} from '@admission-platform/form-renderers/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { definition } from './definition.js';
import { petRenderers } from './renderers.js';

/**
 * The owner page as HTML for the given answers and messages: the runtime decides what is visible,
 * the app's renderers draw it. (In a browser, `usePageView` and a live answer store do the same.)
 */
export function renderOwnerPage(
  answers: Answers,
  errors: Readonly<Record<string, readonly string[]>> = {},
): string {
  const page = visiblePage(definition, answers, 'owner');
  if (!page) throw new Error('the definition has no owner page');
  const context = {
    renderers: petRenderers,
    answers: staticAnswers(answers),
    errors: staticErrors(errors),
    anonymous: false,
    actions: {},
  };
  return renderToStaticMarkup(
    <form>
      <h1>{page.title}</h1>
      <FormProvider value={context}>
        <PageOutlet page={page} />
      </FormProvider>
    </form>,
  );
}
