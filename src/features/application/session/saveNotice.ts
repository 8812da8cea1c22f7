/**
 * D158: Save tells the truth. After a Save, or a move away from a page whose answers need
 * attention, the page shows the saved message and how many answers of that page need attention,
 * linked to the first; the notice goes once the applicant moves to another page.
 */
import { pageOfKey, type Definition } from '#runtime';
import { patch, type ApplicationStore, type Errors } from './state';

/** The keys of `pageId` among the errors shown, in the order the validation found them. */
export function attentionKeys(definition: Definition, errors: Errors, pageId: string): string[] {
  return Object.keys(errors).filter((key) => pageOfKey(definition, key)?.id === pageId);
}

/** Shows a notice on the page at `path` about the page `pageId`; it takes focus. */
export function showSaveNotice(
  store: ApplicationStore,
  notice: { path: string; pageId: string; message: string },
): void {
  const tick = (store.state.saveNotice?.tick ?? 0) + 1;
  patch(store, { saveNotice: { ...notice, tick } });
}

/** The page left behind with answers needing attention says so on the next one. */
export function noticeOnLeaving(
  store: ApplicationStore,
  definition: Definition,
  notice: { path: string; pageId: string; message: string },
): void {
  if (attentionKeys(definition, store.state.errors, notice.pageId).length > 0)
    showSaveNotice(store, notice);
}

/** Arriving elsewhere than the page the notice is on ends it. */
export function clearSaveNoticeAwayFrom(store: ApplicationStore, pathname: string): void {
  const notice = store.state.saveNotice;
  if (notice && notice.path !== pathname) patch(store, { saveNotice: null });
}
