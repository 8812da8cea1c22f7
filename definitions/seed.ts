/**
 * The embedded default's tenant as the files any institution brings (docs/tenants.md): its
 * institution file and its definition, authored in TypeScript here and written out as JSON to
 * tenants/northfield/ (`npm run tenant -- seed-files`; a test keeps them equal).
 */
import type { Definition } from '../runtime';
import { applicationDefinitionData } from './index';
import { institutionConfig } from './config';
import { banner, completion, datedAlerts, offer } from './content';
import { parseInstitutionFile, type InstitutionFile } from './institutionFile';

export const seedInstitutionFile: InstitutionFile = parseInstitutionFile({
  config: institutionConfig,
  offer: { heading: offer.heading, items: [...offer.items] },
  welcome: {
    submitted: { title: banner.submitted.title('{name}'), text: banner.submitted.text },
    firstLogin: { title: banner.firstLogin.title, text: banner.firstLogin.text },
    secondLogin: { title: banner.secondLogin.title, text: banner.secondLogin.text },
  },
  completion: {
    header: completion.header,
    steps: completion.steps.map((step) => ({
      title: step.title,
      text: step.text,
      links: 'link' in step ? [step.link] : [...step.links],
    })),
  },
  alerts: [...datedAlerts],
});

export const seedDefinitionFile: Definition = applicationDefinitionData;
