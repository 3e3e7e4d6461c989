/**
 * Just enough XML reading for discovery answers, by local name and with regular expressions: devices differ
 * in namespace prefixes and white space, and an unreadable answer must be ignored, never thrown on.
 */

/** The inner text of every element with that local name (any prefix, any attributes), in order. */
export function elements(xml: string, name: string): string[] {
  const pattern = new RegExp(
    `<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>`,
    'g',
  );
  return [...xml.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** Whether an element with that local name opens anywhere (self-closing included). */
export function hasElement(xml: string, name: string): boolean {
  return new RegExp(`<(?:[\\w.-]+:)?${name}[\\s/>]`).test(xml);
}

/** The trimmed, decoded text of the first such element; null when there is none or it is empty. */
export function elementText(xml: string, name: string): string | null {
  const inner = elements(xml, name)[0];
  return inner === undefined ? null : decodeEntities(stripCdata(inner)).trim() || null;
}

/** A white-space separated list (WS-Discovery's Types, Scopes, XAddrs), entities decoded. */
export function elementList(xml: string, name: string): string[] {
  const inner = elements(xml, name)[0];
  if (!inner) return [];
  return decodeEntities(stripCdata(inner))
    .split(/\s+/)
    .filter((item) => item !== '');
}

export function withoutComments(xml: string): string {
  return xml.replace(/<!--[\s\S]*?-->/g, '');
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (entity, code: string) => {
    if (code.startsWith('#x')) return codePoint(parseInt(code.slice(2), 16), entity);
    if (code.startsWith('#')) return codePoint(Number(code.slice(1)), entity);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    return named[code] ?? entity;
  });
}

function stripCdata(text: string): string {
  return text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1');
}

function codePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
