/**
 * What the print set needs besides the answers: which file questions have a document. The print
 * view passes it in (the document answers come from the server); outside a provider no document is
 * attached.
 */
import { createContext, useContext, type ReactNode } from 'react';

export interface PrintContextValue {
  /** Question keys that have a document (SPEC 3.4 document answers). */
  readonly documents: ReadonlySet<string>;
}

const NO_DOCUMENTS: PrintContextValue = { documents: new Set() };

const PrintContext = createContext<PrintContextValue>(NO_DOCUMENTS);

export function PrintProvider({
  value,
  children,
}: {
  value: PrintContextValue;
  children: ReactNode;
}) {
  return <PrintContext.Provider value={value}>{children}</PrintContext.Provider>;
}

export function usePrintContext(): PrintContextValue {
  return useContext(PrintContext);
}
