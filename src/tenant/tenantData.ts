/**
 * The page's tenant (SPEC 1, 9; docs/decisions/ D143): its institution file and its definition,
 * inlined by the server into every page as JSON (server/security/headers.ts), so nothing
 * institution-specific is in the bundle and the first page needs no extra request. Read once, when
 * the app starts; the definition comes from our own server, which checked its format, so only its
 * meaning is checked here (`prepareDefinition`).
 */
import { TENANT_DATA_ELEMENT_ID } from '../../contract/firstLoad';
import type { InstitutionConfig } from '../../definitions/config';
import type { InstitutionFile, TenantPageData } from '../../definitions/institutionFile';
import { prepareDefinition, type Definition } from '../../runtime';

function readTenantData(): TenantPageData {
  const text = document.getElementById(TENANT_DATA_ELEMENT_ID)?.textContent;
  if (!text) throw new Error(`The page has no #${TENANT_DATA_ELEMENT_ID} element.`);
  return JSON.parse(text) as TenantPageData;
}

const tenantData = readTenantData();

/** The institution's configuration and words. */
export const institution: InstitutionFile = tenantData.institution;
export const institutionConfig: InstitutionConfig = institution.config;
/** The form the tenant publishes now, and its version. */
export const applicationDefinition: Definition = prepareDefinition(tenantData.definition);
export const definitionVersion: number = tenantData.definitionVersion;

/**
 * The definition a read-only view draws an application with: the version it was submitted under
 * when the server sent it (an older one than the page's, D145), else the page's own.
 */
export function definitionOfRead(read: { definition?: unknown }): Definition {
  return read.definition ? prepareDefinition(read.definition as Definition) : applicationDefinition;
}
