/**
 * The service's read-only view (SPEC 6, 7.2 `/service/*`) and its tokens, which the staff console,
 * the platform and the command line also mint, check and key with. What they and the app use of it,
 * and nothing else (D187).
 */
export { serviceRoutes, serviceTokenQuery } from './routes';
export { cliKey, mintServiceToken, revokeServiceToken, serviceViewData } from './serviceTokens';
