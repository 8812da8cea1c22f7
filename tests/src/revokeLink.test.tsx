// @vitest-environment jsdom
/**
 * An application's service links (the staff console): revoking asks first, "Keep it" sends nothing
 * and gives focus back, and a confirmed revocation is sent once, says so and shows the link revoked.
 * fetch is mocked here only; the console's end-to-end test revokes for real from `/staff/links`.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { staffMessages, type LinkState } from '../../contract/staff';
import { ServiceLinks } from '../../src/features/staff/ServiceLinks';
import { installDomShims } from './renderWithRouter';

const REVOKED = staffMessages.linkRevoked;
// jsdom's name computation drops the space at the start of the visually hidden part (Chromium keeps it).
const REVOKE_BUTTON = /^Revoke ?the link valid until/;
let state: LinkState;
let deletes: string[];

function link() {
  return {
    id: 'link-1',
    state,
    expires_at: '2026-11-24T21:00:00.000Z',
    revoked_at: state === 'revoked' ? '2026-11-24T20:10:00.000Z' : null,
    created_at: '2026-11-24T20:00:00.000Z',
    created_by: 'reader@northfield.edu',
    opened_at: null,
  };
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  installDomShims();
  state = 'live';
  deletes = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      if (init?.method === 'DELETE') {
        deletes.push(path);
        state = 'revoked';
        return json({ message: REVOKED });
      }
      expect(path).toBe('/staff/api/applications/app-1/links');
      return json({ links: [link()] });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLinks() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ServiceLinks id="app-1" isAdmin />
    </QueryClientProvider>,
  );
}

describe("an application's service links", () => {
  it('asks before revoking; "Keep it" sends nothing and gives focus back to the button', async () => {
    renderLinks();
    const button = await screen.findByRole('button', { name: REVOKE_BUTTON });
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this link?' });
    expect(dialog.textContent).toContain('this application');
    const results = await axe.run(document.body, {
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes).toEqual([]);
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(screen.getByText(/^Live:/)).toBeTruthy();
  });

  it('a confirmed revocation is sent once, says so, and the link shows as revoked', async () => {
    renderLinks();
    fireEvent.click(await screen.findByRole('button', { name: REVOKE_BUTTON }));
    const confirm = await screen.findByRole('button', { name: 'Revoke the link' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await screen.findByText(REVOKED);
    expect(deletes).toEqual(['/staff/api/applications/app-1/links/link-1']);
    await screen.findByText(/^Revoked:/);
    expect(screen.queryByRole('button', { name: /^Revoke/ })).toBeNull();
    await waitFor(() => expect(document.activeElement?.id).toBe('staff-links'));
  });
});
