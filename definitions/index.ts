/**
 * The institution's application form as data: `applicationDefinition` is plain, JSON-serializable
 * data, checked by the runtime's format schema (and compiled) when this module loads, so a broken
 * definition fails loudly with the path of the problem.
 */
import { loadDefinition, type Definition } from '../runtime';
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

export const applicationDefinition: Definition = loadDefinition(applicationDefinitionData);

export {
  institutionConfig,
  configurationWarnings,
  missingConfigurationMessage,
  parseInstitutionConfig,
} from './config';
export type { InstitutionConfig } from './config';
export { messages } from './messages';
export { offer, banner, errorSummary, buttons, completion, notices, datedAlerts } from './content';
