/**
 * The chrome's modals (Help, Privacy): the trigger button renders at once; the dialog itself (a
 * Radix dialog with a title, a visible "Close" button and the content) is loaded when the applicant
 * first points at, focuses or presses the button. Focus returns to the button on close.
 */
import {
  cloneElement,
  lazy,
  Suspense,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

const loadFrame = () => import('./ChromeDialogFrame');
const ChromeDialogFrame = lazy(loadFrame);

export interface ChromeDialogProps {
  title: string;
  /** The element that opens the dialog (a button); it gets focus back when the dialog closes. */
  trigger: ReactElement<TriggerProps>;
  children: ReactNode;
}

export interface TriggerProps {
  ref?: Ref<HTMLElement>;
  onClick?: () => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  'aria-haspopup'?: 'dialog';
  'aria-expanded'?: boolean;
}

export function ChromeDialog({ title, trigger, children }: ChromeDialogProps) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const triggerRef = useRef<HTMLElement>(null);
  const preload = () => void loadFrame();
  const opener = cloneElement(trigger, {
    ref: triggerRef,
    onPointerEnter: preload,
    onFocus: preload,
    onClick: () => {
      setRequested(true);
      setOpen(true);
    },
    'aria-haspopup': 'dialog',
    'aria-expanded': open,
  });
  return (
    <>
      {opener}
      {requested && (
        <Suspense fallback={null}>
          <ChromeDialogFrame
            title={title}
            open={open}
            onOpenChange={setOpen}
            returnFocusTo={triggerRef}
          >
            {children}
          </ChromeDialogFrame>
        </Suspense>
      )}
    </>
  );
}
