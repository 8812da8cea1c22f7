import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/queryClient';
import { justLoggedOut, unsavedAnswers } from './session/flush';
import { sessionEnded } from './session/sessionData';
import { sessionEndedHandler } from './session/sessionEnded';
import { createAppRouter } from './router';
import { startServiceApp } from './features/service-view/start';
import {
  keepServiceToken,
  keptServiceToken,
  serviceTokenInAddress,
  stripServiceToken,
} from './features/service-view/token';
import './styles/theme.css';

// The institution's colours and their shades are in the page already (server/security/tenantPage.ts).
// The page's CSP nonce (Vite's csp-nonce meta, filled in per response by the server), for the one
// <style> element the app inserts: the scroll lock of Radix dialogs (react-remove-scroll reads
// __webpack_nonce__). Without it the strict style-src would refuse that element.
const cspNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
if (cspNonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = cspNonce;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// SPEC 2.9: `?service_token=` enters service-user mode, a root of its own loaded on demand. The token
// is removed from the address before anything is fetched and kept for this tab (a reload keeps the
// view; D79).
const addressToken = serviceTokenInAddress();
if (addressToken) {
  stripServiceToken();
  keepServiceToken(addressToken);
}
const serviceToken = addressToken ?? keptServiceToken();
if (serviceToken) {
  startServiceApp(root, serviceToken);
} else {
  startApplicantApp(root);
}

function startApplicantApp(root: HTMLElement) {
  /** SPEC 2.2: any 401 clears all cached data and goes to /login with the session-invalid message. */
  const queryClient: QueryClient = createQueryClient(
    sessionEndedHandler({
      clear: () => sessionEnded(queryClient, 'invalid'),
      toLogin: (state) => router.navigate({ to: '/login', state }),
      unsaved: unsavedAnswers,
      justLoggedOut,
    }),
  );
  const router = createAppRouter(queryClient);

  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
