/**
 * The platform's tenant administration (D145): `/platform/api` and what `npm run tenant` calls.
 * What the app and the command line use of it, and nothing else (D187).
 */
export { platformRoutes } from './routes';
export {
  addTenant,
  CLI_PUBLISHER,
  exportTenant,
  listTenants,
  problemLine,
  publishTenantDefinition,
  replaceInstitution,
  TenantFileRefused,
  type PublishAnswer,
  type TenantSummary,
} from './tenantAdmin';
export {
  definitionFileProblems,
  institutionChecks,
  institutionFileProblems,
  kindOfFile,
  type FileProblem,
  type InstitutionCheck,
} from './definitionChecks';
export { parseJson } from './plainWords';
