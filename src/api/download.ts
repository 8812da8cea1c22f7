/** Saving a file the server sends as an attachment, under the name its Content-Disposition gives. */

/** The file name of a Content-Disposition header: its UTF-8 name, else its plain one. */
export function attachmentName(disposition: string | null): string | null {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // A name that is not percent-encoded UTF-8: the plain one below.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? null;
}

/** Hands a fetched file to the browser's downloads; `fallbackName` when the server names none. */
export async function saveResponse(response: Response, fallbackName: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = attachmentName(response.headers.get('content-disposition')) ?? fallbackName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
