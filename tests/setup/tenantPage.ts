/**
 * Vitest setup of every suite: a page in jsdom carries the tenant data the server inlines into each
 * page (server/security/tenantPage.ts), here the embedded default's, before the app's modules load
 * and read it (src/tenant/tenantData.ts).
 */
import { TENANT_DATA_ELEMENT_ID } from '../../contract/firstLoad';

if (typeof document !== 'undefined' && !document.getElementById(TENANT_DATA_ELEMENT_ID)) {
  const { seedDefinitionFile, seedInstitutionFile } = await import('../../definitions/seed');
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = TENANT_DATA_ELEMENT_ID;
  element.textContent = JSON.stringify({
    institution: seedInstitutionFile,
    definition: seedDefinitionFile,
    definitionVersion: seedDefinitionFile.version,
  });
  document.head.append(element);
}
