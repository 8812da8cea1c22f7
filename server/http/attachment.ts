/** RFC 6266: an ASCII fallback and the UTF-8 name. */
export function disposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const attachment = (fileName: string) => disposition('attachment', fileName);
