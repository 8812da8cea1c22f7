/**
 * Chunking rule for the client build (docs/decisions/ D29): every module the first page loads
 * through static imports goes into one chunk, so on-demand chunks (dialogs, toasts, account screens)
 * do not split the first page into many small files that compress worse and cost extra requests.
 */
interface ModuleGraphInfo {
  isEntry: boolean;
  importers: readonly string[];
}
type GetModuleInfo = (id: string) => ModuleGraphInfo | null;

export function firstPageChunkName(id: string, getModuleInfo: GetModuleInfo): string | null {
  return loadedByEntry(id, getModuleInfo, new Set()) ? 'app' : null;
}

function loadedByEntry(id: string, getModuleInfo: GetModuleInfo, seen: Set<string>): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = getModuleInfo(id);
  if (!info) return false;
  if (info.isEntry) return true;
  return info.importers.some((importer) => loadedByEntry(importer, getModuleInfo, seen));
}
