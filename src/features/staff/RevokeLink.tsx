/**
 * Revoking a service link asks first, from either list (`/staff/links` and an application's page):
 * the reviewer who has it loses access at once, and it cannot be undone.
 */
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { messageResponse } from '#contract';
import ChromeDialogFrame from '../../chrome/ChromeDialogFrame';
import { staffCall } from './api';
import { ConfirmActions } from './ui';

export interface RevocableLink {
  readonly id: string;
  readonly applicantId: string;
  /** Who the application is of, when the list shows several applications. */
  readonly applicantLabel?: string;
}

/**
 * The confirmation's state. `focusAfter` names the element that takes focus once the link is
 * revoked (the row's button is gone by then); `onRevoked` refreshes the list.
 */
export function useLinkRevocation({
  focusAfter,
  onRevoked,
}: {
  focusAfter: string;
  onRevoked: () => unknown;
}) {
  const [confirming, setConfirming] = useState<RevocableLink | null>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const revoke = useMutation({
    mutationFn: (link: RevocableLink) =>
      staffCall(messageResponse, `/applications/${link.applicantId}/links/${link.id}`, {
        method: 'DELETE',
      }),
    onSuccess: () => {
      returnFocusTo.current = document.getElementById(focusAfter);
      setConfirming(null);
      void onRevoked();
    },
  });
  const ask = (link: RevocableLink, button: HTMLElement) => {
    returnFocusTo.current = button;
    revoke.reset();
    setConfirming(link);
  };
  // A double click sends one request (the button is disabled only once React has rendered again).
  const sending = useRef(false);
  const confirm = () => {
    if (!confirming || sending.current) return;
    sending.current = true;
    revoke.mutate(confirming, { onSettled: () => (sending.current = false) });
  };
  return { confirming, setConfirming, returnFocusTo, revoke, ask, confirm };
}

export type LinkRevocation = ReturnType<typeof useLinkRevocation>;

export function RevokeLinkDialog({ revocation }: { revocation: LinkRevocation }) {
  const { confirming, setConfirming, returnFocusTo, revoke, confirm } = revocation;
  const label = confirming?.applicantLabel;
  return (
    <ChromeDialogFrame
      title="Revoke this link?"
      open={confirming !== null}
      onOpenChange={(open) => {
        if (!open) setConfirming(null);
      }}
      returnFocusTo={returnFocusTo}
    >
      <p>
        The reviewer who has the link to{' '}
        {label ? (
          <>
            the application of <strong>{label}</strong>
          </>
        ) : (
          'this application'
        )}{' '}
        will no longer be able to open it. This cannot be undone; you can make a new link from the
        application.
      </p>
      <ConfirmActions
        error={revoke.error}
        pending={revoke.isPending}
        label="Revoke the link"
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
    </ChromeDialogFrame>
  );
}
