/**
 * The lookup lists (SPEC 7.2 `GET /lookup/find`): their store, search and import. What the app uses
 * of them, and nothing else (D187).
 */
export { lookupRoutes } from './routes';
export { LookupService } from './service';
export { seedSampleLists } from './store';
