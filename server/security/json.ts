/**
 * Duplicate keys in a JSON object (SECURITY.md 7.19, ASVS 15.3.7 / 1.5.3): JSON.parse keeps the last
 * value, other parsers the first, so `{"ssn":"1","ssn":"2"}` could be validated as one value and
 * read as another. Bodies with duplicate keys are refused instead. Runs on text JSON.parse accepted.
 */
export function hasDuplicateKeys(text: string): boolean {
  // One entry per open container: the keys seen so far in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c /* \ */) end++;
        end++;
      }
      let next = end + 1;
      while (next < text.length && /\s/.test(text[next] as string)) next++;
      const keys = open[open.length - 1];
      if (text[next] === ':' && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */) open.push(new Set());
    else if (c === 0x5b /* [ */) open.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) open.pop();
    i++;
  }
  return false;
}
