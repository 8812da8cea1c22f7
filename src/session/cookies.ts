/** SPEC 3.1: is_logged_in is derived from the readable indicator cookie the server sets at login. */
import { INDICATOR_COOKIE } from '../../contract/firstLoad';

export { INDICATOR_COOKIE };

export function hasIndicatorCookie(
  cookieString: string = typeof document === 'undefined' ? '' : document.cookie,
): boolean {
  return cookieString.split(';').some((part) => part.trim() === `${INDICATOR_COOKIE}=1`);
}
