/**
 * Words as people type them: typos fixed against the words the home sitter knows (its own vocabulary and the
 * user's camera, property and memory names), and English and German names for the same place ("Haustür" for
 * a camera called "Front Door", "zu Hause" for a property called "Home", and the reverse). Everything here
 * works on folded text (`fold`).
 */
import { fold } from '../language/language.module.js';

/**
 * Places that go by several names: a camera or property called by one of them answers to all of them (unless
 * another camera or property is called that).
 */
const PLACE_GROUPS: string[][] = [
  ['front door', 'haustur', 'haustuer', 'eingang', 'eingangstur', 'vordertur', 'entrance', 'front entrance'],
  ['back door', 'hintertur', 'hintereingang'],
  ['driveway', 'einfahrt', 'auffahrt', 'zufahrt', 'drive'],
  ['garden', 'garten', 'yard'],
  ['backyard', 'back yard', 'hinterhof', 'hintergarten'],
  ['garage', 'carport'],
  ['porch', 'veranda', 'vorbau'],
  ['patio', 'terrace', 'terrasse'],
  ['gate', 'tor', 'gartentor', 'hoftor'],
  ['cabin', 'hutte', 'huette', 'berghutte', 'chalet', 'blockhutte'],
  ['home', 'house', 'zu hause', 'zuhause', 'daheim', 'haus', 'at home'],
  ['beach house', 'strandhaus'],
  ['shed', 'schuppen', 'gartenhaus'],
  ['street', 'strasse', 'road'],
  ['kitchen', 'kuche'],
  ['living room', 'wohnzimmer'],
  ['hallway', 'hall', 'flur'],
  ['balcony', 'balkon'],
  ['parking', 'parkplatz', 'stellplatz'],
  ['office', 'buro'],
];

/**
 * Words for a wider place that people use for a narrower one: "im Garten" for a camera called "Backyard",
 * "an der Tür" for "Front Door". Weaker than the groups above: such a word goes to an item only when no item
 * answers to it directly and only one item would get it.
 */
const BROADER: [string[], string[]][] = [
  [
    ['backyard', 'back yard', 'hinterhof', 'hintergarten', 'front yard', 'vorgarten'],
    ['garden', 'garten', 'yard', 'hof'],
  ],
  [
    ['front door', 'back door', 'haustur', 'hintertur', 'entrance', 'eingang'],
    ['door', 'tur', 'ture'],
  ],
  [
    ['cabin porch', 'porch', 'veranda'],
    ['porch', 'veranda', 'vorbau'],
  ],
];

/**
 * The other names each item answers to: its place group's, and its last word alone when no other item ends
 * with it ("door" for "Front Door"). An alias that is another item's own name, or that two items would share,
 * is dropped: the user's own names always win.
 */
export function placeAliases<T>(items: { key: string; value: T }[]): { key: string; value: T }[] {
  const own = new Set(items.map((i) => fold(i.key)));
  const byAlias = new Map<string, Set<T>>();
  const add = (alias: string, value: T) => {
    if (!alias || own.has(alias)) return;
    byAlias.set(alias, (byAlias.get(alias) ?? new Set()).add(value));
  };
  const lastWords = new Map<string, number>();
  for (const item of items) {
    const last = fold(item.key).split(' ').at(-1) ?? '';
    lastWords.set(last, (lastWords.get(last) ?? 0) + 1);
  }
  for (const item of items) {
    const name = fold(item.key);
    for (const group of PLACE_GROUPS) if (group.includes(name)) for (const g of group) add(g, item.value);
    const words = name.split(' ');
    const last = words.at(-1) ?? '';
    if (words.length > 1 && last.length >= 4 && lastWords.get(last) === 1) {
      add(last, item.value);
      for (const group of PLACE_GROUPS) if (group.includes(last)) for (const g of group) add(g, item.value);
    }
  }
  const broader = new Map<string, Set<T>>();
  for (const item of items) {
    const name = fold(item.key);
    for (const [narrow, wide] of BROADER)
      if (narrow.includes(name) || narrow.some((n) => name.endsWith(` ${n}`)))
        for (const alias of wide)
          if (!own.has(alias) && !byAlias.has(alias))
            broader.set(alias, (broader.get(alias) ?? new Set()).add(item.value));
  }
  return [...byAlias, ...broader]
    .filter(([, values]) => values.size === 1)
    .map(([key, values]) => ({ key, value: [...values][0]! }));
}

/** Words the home sitter reads in questions, typo targets (folded). */
const VOCABULARY = (
  'the how what who when where which anyone anybody someone somebody anything something happened happen ' +
  'today yesterday tonight morning afternoon evening night last week hour hours minutes ago since before ' +
  'after between door front back person people persons visitor visitors stranger strangers delivery ' +
  'package parcel packages car cars truck trucks vehicle vehicles animal animals dog dogs cat cats bird ' +
  'birds camera cameras property properties offline online private muted remember unusual event events ' +
  'many seen there were come came driveway garden backyard garage cabin house home thanks thank ' +
  'heute gestern morgens abends nachmittag nacht jemand jemanden niemand passiert gesehen kamera kameras ' +
  'paket pakete lieferung haustur einfahrt garten hutte auto autos hund katze personen leute danke wetter ' +
  'ungewohnlich letzte letzten ereignis'
).split(' ');

/** Common words, never "fixed" into another ("nach" is not "nacht", "cold" is not "could"), nor typo targets. */
const COMMON = (
  'about again all also and any are around been being both but could did does doing done each else ever ' +
  'from had has have here into just know like made more most much need only other over same see should ' +
  'some still such than that their them then these they this those through under until very want was ' +
  'will with would your you going tell please hello there their its not now yes yeah okay right got ' +
  'aber alle alles als andere auch auf aus bei beim bis dann das dass dein deine dem den der des die dies ' +
  'diese dieser doch dort durch ein eine einem einen einer etwas euch gegen gibt hast hat hatte hier ich ' +
  'ihr ihre immer jetzt kann kam kommt mal man mehr mein meine mich mir mit nach nicht noch nur oder schon ' +
  'sein seit sich sie sind soll uber und uns unter viel vom von vor war waren warum was weil welche wenn ' +
  'wer wie wieder wird woche wurde zum zur zwischen uhr heut hallo bitte gerade eben ist viele morgen guten ' +
  'cold hot warm fire smoke rain snow bear joke weather witz wetter feuer rauch thats whats bye much most'
).split(' ');

/**
 * Words the parser's own lists read (kinds, times, German everyday words): never "fixed" into another word
 * ("tiere" is not "there", "kinder" is not "kinds").
 */
const READ = (
  'tier tiere tieren haustier haustiere leute menschen kind kinder hunde katzen kater vogel vogel fuchs rehe pferd ' +
  'fahrzeug fahrzeuge wagen lkw laster fahrrad motorrad besuch besucher gast gaste fremde nachbar nachbarn ' +
  'kids child children guests visitors neighbour neighbor neighbours neighbors mailman postman police ' +
  'irgendwas irgendwer irgendjemand vorhin zuletzt letztes mitternacht midnight nite tonite ' +
  'unterwegs draussen drinnen stunde stunden minuten tage wochen woche wochenende ' +
  'walking walked walk running drove driving parked parking standing looking'
).split(' ');

const KNOWN = new Set([...VOCABULARY, ...COMMON, ...READ]);

/** Chat spellings, read as the words they stand for ("last nite", "rn", "nen Fuchs"). */
const SHORTHAND: Record<string, string> = {
  nite: 'night',
  tonite: 'tonight',
  midnite: 'midnight',
  rn: 'right now',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  tomoz: 'tomorrow',
  '2day': 'today',
  '2nite': 'tonight',
  yday: 'yesterday',
  yest: 'yesterday',
  u: 'you',
  ur: 'your',
  pls: 'please',
  plz: 'please',
  nen: 'einen',
  grad: 'gerade',
  wat: 'what',
  sth: 'something',
  smth: 'something',
};

/** Whether a folded word is one the home sitter reads in questions (so it is no one's name). */
export function isKnownWord(folded: string): boolean {
  return KNOWN.has(folded);
}

/** Optimal-string-alignment distance (an adjacent swap costs one), stopping early past `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return d[a.length]![b.length]!;
}

/** How far a typed word may be from a known one: none for short words, one typo, two in long words. */
function allowed(word: string): number {
  if (word.length < 3) return 0;
  return word.length >= 8 ? 2 : 1;
}

/**
 * The folded text with each unknown word replaced by the one known word it is a typo of ("teh frnt door" →
 * "the front door"). A word is only replaced when exactly one known word is that close and starts with the
 * same letter (or is a swap of the first two), so names and words the home sitter does not know stay as
 * typed.
 */
export function fixTypos(folded: string, names: string[] = []): string {
  const targets = new Set<string>(VOCABULARY);
  for (const n of names) for (const w of fold(n).split(' ')) if (w.length >= 3) targets.add(w);
  const known = new Set([...targets, ...COMMON, ...READ]);
  const list = [...targets];
  return folded
    .split(' ')
    .map((word) => {
      const short = SHORTHAND[word];
      if (short) return short;
      if (known.has(word) || /\d/.test(word)) return word;
      const max = allowed(word);
      if (max === 0) return word;
      let best: string | undefined;
      let bestDistance = max + 1;
      let tie = false;
      for (const k of list) {
        if (k.length < 3) continue;
        const sameStart = k[0] === word[0] || (k[0] === word[1] && k[1] === word[0]);
        if (!sameStart) continue;
        // Three-letter words only by a swap ("teh"), never by a change ("bar" is not "car").
        if (word.length === 3 && !(k.length === 3 && [...k].sort().join('') === [...word].sort().join('')))
          continue;
        // Two typos only between words of about the same length ("gardener" is not "garden").
        const limit = Math.abs(k.length - word.length) > 1 ? 1 : max;
        const distance = editDistance(word, k, limit);
        if (distance > limit) continue;
        if (distance < bestDistance) {
          best = k;
          bestDistance = distance;
          tie = false;
        } else if (distance === bestDistance && k !== best) tie = true;
      }
      return best && !tie && bestDistance <= max ? best : word;
    })
    .join(' ');
}
