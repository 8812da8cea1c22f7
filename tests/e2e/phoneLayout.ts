/**
 * Geometric checks of the applicant's screens on a phone (D160): each measures
 * boxes in the page and returns what it found wrong, so a test names every fault at once.
 */
import type { Locator, Page } from 'playwright-core';

/** A lookup's chosen text never runs under its clear "×": the input's text box ends before it. */
export async function textUnderClearButtons(page: Page, clearLabel: string): Promise<string[]> {
  return page.evaluate((label) => {
    const faults: string[] = [];
    for (const button of document.querySelectorAll(`button[aria-label="${label}"]`)) {
      const input = button.parentElement?.querySelector('input');
      if (!input) continue;
      const style = getComputedStyle(input);
      const textRight =
        input.getBoundingClientRect().right -
        parseFloat(style.paddingRight) -
        parseFloat(style.borderRightWidth);
      const clearLeft = button.getBoundingClientRect().left;
      if (textRight > clearLeft + 0.5)
        faults.push(
          `#${input.id}: text runs to ${textRight}, the clear button starts at ${clearLeft}`,
        );
    }
    return faults;
  }, clearLabel);
}

/**
 * Nothing the applicant reads lies under `overlay` (the autosave state, a toast): no element with
 * its own text, and no control, meets its box. Checked at the page's current scroll position.
 */
export async function textUnder(overlay: Locator): Promise<string[]> {
  return overlay.evaluate((over) => {
    const box = over.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return [];
    const meets = (r: DOMRect) =>
      r.width > 0 &&
      r.height > 0 &&
      r.left < box.right &&
      box.left < r.right &&
      r.top < box.bottom &&
      box.top < r.bottom;
    const readable = (element: Element) =>
      element.matches('input, select, textarea, button, a') ||
      [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
      );
    const faults: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      if (over.contains(element) || element.contains(over) || !readable(element)) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      if (meets(element.getBoundingClientRect()))
        faults.push(
          `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`,
        );
    }
    return faults;
  });
}

/** The box of `a` meets the box of `b`. */
export async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) return false;
  return (
    boxA.x < boxB.x + boxB.width &&
    boxB.x < boxA.x + boxA.width &&
    boxA.y < boxB.y + boxB.height &&
    boxB.y < boxA.y + boxA.height
  );
}

/** Where the text of an element starts on screen (its first line's left edge). */
export async function textLeft(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const first = range.getClientRects()[0];
    return first ? first.left : node.getBoundingClientRect().left;
  });
}

/** The colours that tell a button's role: background, text and border. */
export async function buttonLook(button: Locator): Promise<string> {
  return button.evaluate((element) => {
    const style = getComputedStyle(element);
    return `${style.backgroundColor} ${style.color} ${style.borderTopColor}`;
  });
}
