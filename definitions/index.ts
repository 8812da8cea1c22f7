/**
 * The institution's application form as data: `applicationDefinition` is plain, JSON-serializable
 * data. Its format is checked by the TypeScript compiler (`satisfies Definition`) and its meaning by
 * compiling it when this module loads; the server checks the same data with the runtime's full
 * format schema at start-up (`loadDefinition`, server/tenants.ts), so a broken definition fails
 * loudly with the path of the problem without putting the schema in the browser bundle.
 */
import { prepareDefinition, type Definition } from '../runtime';
import { institutionConfig } from './config';
import { optionLists } from './lists';
import { aboutPage } from './pages/about';
import { educationPage } from './pages/education';
import { finalStepsPage } from './pages/finalSteps';

export const applicationDefinitionData = {
  id: 'northfield-undergraduate',
  title: institutionConfig.application_title,
  version: 1,
  defaultRoute: '/about',
  optionLists,
  pages: [aboutPage, educationPage, finalStepsPage],
} satisfies Definition;

export const applicationDefinition: Definition = prepareDefinition(applicationDefinitionData);

export {
  institutionConfig,
  configurationWarnings,
  missingConfigurationMessage,
  parseInstitutionConfig,
  DEFAULT_TIME_ZONE,
} from './config';
export type { InstitutionConfig } from './config';
export { messages } from './messages';
export { offer, banner, completion, datedAlerts } from './content';
