/** Starts service-user mode: the view and the print set load on demand (D28's first-page budget). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

export function startServiceApp(root: HTMLElement, token: string): void {
  void import('./ServiceApp').then(({ ServiceApp }) =>
    createRoot(root).render(
      <StrictMode>
        <ServiceApp token={token} />
      </StrictMode>,
    ),
  );
}
