// The conversion worker's entry: the server's TypeScript runs through tsx (as `npm start` does).
import { register } from 'tsx/esm/api';

register();
await import('./sandboxWorker.ts');
