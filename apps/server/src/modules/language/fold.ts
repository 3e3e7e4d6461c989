/**
 * Text folded for matching: lower case, accents and umlauts stripped (ü → u, ß → ss), possessive "'s"
 * dropped, punctuation (but the `:` `.` `-` `/` of times and dates) turned into spaces. Names are compared in
 * this form, with their umlaut spellings as variants (Haustür, Haustuer, Haustur all match).
 */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[’`´]/g, "'")
    .replace(/'s\b/g, '')
    .replace(/'/g, '')
    .replace(/[^a-z0-9:./-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The spellings a name may be typed in: as written, with umlauts written out, and without them. */
export function nameVariants(name: string): string[] {
  const written = name
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/Ä/g, 'Ae')
    .replace(/Ö/g, 'Oe')
    .replace(/Ü/g, 'Ue');
  const plain = fold(name);
  const variants = new Set([plain, fold(written), plain.replace(/([aou])e/g, '$1')]);
  return [...variants].filter((v) => v.length > 0);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern that finds a folded name as whole words, with or without its inner spaces or a trailing "s". */
export function namePattern(variant: string): RegExp {
  const words = variant
    .split(/[\s\-_/]+/)
    .filter(Boolean)
    .map(escape);
  return new RegExp(`(?<![a-z0-9])${words.join('[ -]?')}s?(?![a-z0-9])`, 'g');
}
