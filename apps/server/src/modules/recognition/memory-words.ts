import type { ColourName } from '../../adapters/vision/vision.js';

/** How memories' free text (make, colour, species) is read, in English and German. */

/** Lower-case words of a free text, in any script ("Schäferhund", "F-150" → "f", "150"). */
function words(text: string | null | undefined): string[] {
  return (text ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The first entry of a vocabulary a text names: single words, two-word names, or German compounds' tails. */
export function lookup<T>(
  text: string | null | undefined,
  vocabulary: Record<string, T>,
  suffixes: [string, T][] = [],
): T | undefined {
  const list = words(text);
  for (let i = 0; i < list.length; i++) {
    const pair = i + 1 < list.length ? `${list[i]} ${list[i + 1]}` : undefined;
    if (pair && Object.hasOwn(vocabulary, pair)) return vocabulary[pair];
    const word = list[i]!;
    if (Object.hasOwn(vocabulary, word)) return vocabulary[word];
    const tail = suffixes.find(([suffix]) => word.endsWith(suffix));
    if (tail) return tail[1];
  }
  return undefined;
}

const COLOUR_WORDS: Record<string, ColourName> = {
  white: 'white',
  weiß: 'white',
  weiss: 'white',
  cream: 'white',
  creme: 'white',
  ivory: 'white',
  pearl: 'white',
  perlmutt: 'white',
  black: 'black',
  schwarz: 'black',
  ebony: 'black',
  grey: 'grey',
  gray: 'grey',
  grau: 'grey',
  anthracite: 'grey',
  anthrazit: 'grey',
  graphite: 'grey',
  graphit: 'grey',
  charcoal: 'grey',
  gunmetal: 'grey',
  silver: 'silver',
  silber: 'silver',
  silbern: 'silver',
  platinum: 'silver',
  red: 'red',
  rot: 'red',
  maroon: 'red',
  burgundy: 'red',
  bordeaux: 'red',
  crimson: 'red',
  weinrot: 'red',
  dunkelrot: 'red',
  orange: 'orange',
  yellow: 'yellow',
  gelb: 'yellow',
  gold: 'yellow',
  golden: 'yellow',
  green: 'green',
  grün: 'green',
  gruen: 'green',
  olive: 'green',
  oliv: 'green',
  teal: 'green',
  blue: 'blue',
  blau: 'blue',
  navy: 'blue',
  marine: 'blue',
  dunkelblau: 'blue',
  hellblau: 'blue',
  turquoise: 'blue',
  türkis: 'blue',
  purple: 'purple',
  violet: 'purple',
  violett: 'purple',
  lila: 'purple',
  pink: 'purple',
  rosa: 'purple',
  magenta: 'purple',
  brown: 'brown',
  braun: 'brown',
  beige: 'brown',
  bronze: 'brown',
  tan: 'brown',
  champagne: 'brown',
};

/** Colours a camera easily takes for one another (light and shade, white balance). */
const NEIGHBOUR_COLOURS: Record<ColourName, ColourName[]> = {
  white: ['silver'],
  silver: ['white', 'grey'],
  grey: ['silver', 'black'],
  black: ['grey'],
  red: ['orange', 'purple'],
  orange: ['red', 'yellow', 'brown'],
  yellow: ['orange'],
  green: [],
  blue: ['purple'],
  purple: ['blue', 'red'],
  brown: ['orange'],
};

/** The colour a free text names, in English or German ("dark blue", "Weiß", "anthrazit metallic"). */
export function colourOf(text: string | null | undefined): ColourName | undefined {
  return lookup(text, COLOUR_WORDS);
}

/** 2 for the same colour, 1 for a neighbour, 0 otherwise. */
export function colourScore(a: ColourName, b: ColourName): number {
  if (a === b) return 2;
  return NEIGHBOUR_COLOURS[a].includes(b) ? 1 : 0;
}
