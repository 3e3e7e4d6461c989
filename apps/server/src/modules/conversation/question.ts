/**
 * A chat message turned into a search over activities: a time window, the cameras, properties, kinds,
 * labels and memories it names, in English or German (both are understood whatever the profile says). A
 * "remember that …" / "merk dir, dass …" message is a note to keep instead; a bare greeting or thanks is
 * small talk.
 */
import {
  fold,
  namePattern,
  nameVariants,
  type Language,
  type ObjectKind,
} from '../language/language.module.js';
import {
  defaultWindow,
  guessExpiry,
  parseTimeWindow,
  type TimeContext,
  type WindowLabel,
  type WindowTiming,
} from './time-phrases.js';
import { fixTypos, placeAliases } from './words.js';

export interface QuestionContext {
  now: Date;
  timezone: string | null | undefined;
  language: Language;
  /** The user's cameras (removed ones left out). */
  cameras: { name: string; siteId: string | null }[];
  /** The user's properties. */
  sites: { id: string; name: string }[];
  /** Memories by the names they answer to; a memory may appear once per alias. */
  memories: { uuid: string; name: string; category: 'people' | 'vehicles' | 'animals' | 'other' }[];
  /** The user's last known time away, for "while I was out" (none known yet: the answer asks when). */
  away?: TimeContext['away'];
  /** When the user last used the app, for "while I was out" when no time away is known. */
  lastUsedAt?: TimeContext['lastUsedAt'];
}

export type Intent = 'search' | 'remember' | 'smalltalk';

export interface ParsedQuestion {
  intent: Intent;
  /** The window searched: always set for a search (the last 24 hours when the question names none). */
  from?: Date;
  to?: Date;
  /** How the window was asked for, to say it back. */
  window?: WindowLabel;
  /**
   * The window against now: `so_far` (cut at now, the answer says "so far"), `ahead` (not begun: the
   * answer says so, never "nothing"), `ask` (only the user knows when: the answer asks). Absent: past.
   */
  timing?: WindowTiming;
  /** Cameras named, as the user's camera list spells them. */
  cameraNames?: string[];
  /** Properties named, directly or through a named camera. */
  siteIds?: string[];
  kinds?: ObjectKind[];
  /** Detector labels asked for ("car", "dog"), when more precise than the kind. */
  labels?: string[];
  /** Vehicle colours asked for, in English as stored ("the white car", "das weiße Auto"). */
  colours?: string[];
  memoryIds?: string[];
  /** The user asked about every property ("everywhere", "all cameras", "überall"). */
  allProperties: boolean;
  /** For `remember`: the note, as the user wrote it. */
  rememberText?: string;
  /** For `remember`: when the note stops mattering, if it says ("tomorrow", "on Tuesday"). */
  rememberUntil?: Date;
  /** For `smalltalk`: what kind. */
  smalltalk?: 'greeting' | 'thanks' | 'help';
}

interface KindWord {
  re: RegExp;
  kind: ObjectKind;
  label?: string;
}

const words = (list: string) => new RegExp(`\\b(${list})\\b`);

/** Folded keywords (umlauts stripped: "gaste" is "Gäste"). */
const KIND_WORDS: KindWord[] = [
  {
    kind: 'person',
    re: words(
      'anyone|anybody|someone|somebody|nobody|no one|who|whom|person|persons|people|ppl|visitors?|guests?|' +
        'strangers?|intruders?|burglars?|courier|delivery (?:guy|man|person|driver)|mailman|postman|' +
        'men|man|guy|guys|neighbou?rs?|gardeners?|cleaners?|plumbers?|nachbarn?|nachbarin|gartner|handwerker|' +
        'woman|women|kids?|child|children|humans?|' +
        'jemand|jemanden|irgendwer|irgendjemand|wer|wen|niemand|niemanden|personen|leute|menschen?|' +
        'besuch|besucher|besucherin|besucherinnen|gast|gaste|fremde|fremder|fremden|einbrecher|' +
        'paketbote|postbote|bote|lieferant|frau|frauen|kind|kinder',
    ),
  },
  { kind: 'vehicle', label: 'car', re: words('cars?|autos?|pkw') },
  {
    kind: 'vehicle',
    label: 'truck',
    re: words('trucks?|lorry|lorries|vans?|lkws?|laster|transporter|lieferwagen'),
  },
  { kind: 'vehicle', label: 'bus', re: words('bus|buses|busse') },
  { kind: 'vehicle', label: 'motorcycle', re: words('motorcycles?|motorbikes?|motorrad|motorrader') },
  { kind: 'vehicle', label: 'bicycle', re: words('bicycles?|bikes?|fahrrad|fahrrader') },
  { kind: 'vehicle', re: words('vehicles?|fahrzeug|fahrzeuge|fahrzeugen|wagen') },
  { kind: 'animal', label: 'dog', re: words('dogs?|pupp(?:y|ies)|hund|hunde|hunden|welpen?') },
  { kind: 'animal', label: 'cat', re: words('cats?|kittens?|katze|katzen|kater') },
  { kind: 'animal', label: 'bird', re: words('birds?|vogel') },
  { kind: 'animal', label: 'fox', re: words('fox|foxes|fuchs|fuchse') },
  { kind: 'animal', label: 'deer', re: words('deer|reh|rehe') },
  { kind: 'animal', label: 'horse', re: words('horses?|pferd|pferde') },
  {
    kind: 'animal',
    re: words('animals?|pets?|wildlife|critters?|tier|tiere|tieren|haustier|haustiere|wildtier|wildtiere'),
  },
];

/** Colour words said of a vehicle, folded, and the stored colour each means. */
const VEHICLE_COLOURS: [RegExp, string][] = [
  [words('white|weiss\\w*'), 'white'],
  [words('black|schwarz\\w*'), 'black'],
  [words('red|rot|rote[snrm]?'), 'red'],
  [words('blue|blau\\w*'), 'blue'],
  [words('silver|silber\\w*'), 'silver'],
  [words('gr[ae]y|grau\\w*'), 'grey'],
  [words('green|grun\\w*'), 'green'],
  [words('yellow|gelb\\w*'), 'yellow'],
  [words('brown|braun\\w*'), 'brown'],
];

const ALL_PROPERTIES = new RegExp(
  '\\b(everywhere|anywhere|all (?:of )?(?:my |the |our )?(?:properties|homes|houses|places|sites|cameras|locations)|' +
    'every (?:property|camera|home|house|place)|both (?:properties|homes|houses|places)|' +
    'uberall|alle[nm]? (?:meine[nm]? |unsere[nm]? )?(?:grundstucke|objekte|hauser|standorte|immobilien|kameras|orte)|' +
    'beide[nm]? (?:grundstucke|objekte|hauser|standorte|immobilien))\\b',
);

const REMEMBER = [
  // "FYI the white car is the neighbours'", "btw, the cleaner has a key", "zur Info: …": told, to be kept.
  /^\s*(?:fyi|btw|by the way|just so you know|for your information|heads up|zur info|nur zur info|info|ubrigens|übrigens)\s*[:,-]?\s+(?<note>.+)$/is,
  /^(?<note>.+?)[\s,]+(?:fyi|btw|just so you know|ubrigens|übrigens)$/is,
  /^\s*(?:(?:please|pls|hey|ok|okay)[\s,]+)*(?:remember|note|keep in mind|make a note|don'?t forget|do not forget)(?:\s+(?:please|for me))?(?:\s+that)?\s*[:,-]?\s*(?<note>.+)$/is,
  /^\s*(?:(?:bitte|hey|ok|okay)[\s,]+)*(?:merk(?:e)?\s+dir|merken\s+sie\s+sich|merken|denk(?:e)?\s+(?:daran|dran)|vergiss\s+nicht|notier(?:e)?(?:\s+dir)?)(?:\s+bitte)?\s*[:,-]?\s*(?:,?\s*(?<dass>dass)\s+)?(?<note>.+)$/is,
];

const GREETING =
  /^(hi|hello|hey|hiya|good (morning|afternoon|evening)|hallo|moin|servus|gruss gott|guten (morgen|tag|abend)|how are you|wie geht(s| es dir)?)( there| du)?( homesitter)?$/;
const THANKS =
  /^(thanks?( you)?( so much| a lot)?|thx|cheers|great|perfect|danke( schon| sehr)?|vielen dank|super|prima)( homesitter)?$/;
const HELP =
  /^(help|what can you do|who are you|how does this work|hilfe|was kannst du( alles)?|wer bist du|wie funktioniert das)$/;

/** Longest first, so "Front Door Left" wins over "Front Door", and a match hides its words from the rest. */
function matchNames<T>(text: string, items: { key: string; value: T }[]): { found: T[]; rest: string } {
  const candidates = items
    .flatMap((item) => nameVariants(item.key).map((variant) => ({ variant, value: item.value })))
    .sort((a, b) => b.variant.length - a.variant.length);
  let rest = text;
  const found: T[] = [];
  for (const { variant, value } of candidates) {
    const re = namePattern(variant);
    if (!re.test(rest)) continue;
    rest = rest.replace(namePattern(variant), (m) => ' '.repeat(m.length));
    if (!found.includes(value)) found.push(value);
  }
  return { found, rest };
}

const DE_DETERMINERS =
  /^(der|die|das|ein|eine|einen|mein|meine|meinen|dein|deine|unser|unsere|euer|eure|sein|seine|ihr|ihre)$/i;
const DE_PRONOUNS = /^(ich|du|er|sie|es|wir|ihr|man)$/i;
const DE_AUXILIARIES =
  /^(wird|werden|will|wollen|kann|können|muss|müssen|soll|sollen|darf|dürfen|möchte|möchten|hat|haben|ist|sind)$/;

/**
 * "dass der Klempner morgen kommt" as a note of its own: "Der Klempner kommt morgen". The finite verb (the
 * clause's last word) moves behind the subject (a name, a pronoun, or a determiner up to its noun). Anything
 * that does not fit that shape is kept as written.
 */
function deMainClause(clause: string): string {
  const body = clause.replace(/[.!]+$/, '').trim();
  const tokens = body.split(/\s+/);
  if (tokens.length < 3) return clause;
  const verb = tokens.at(-1)!;
  if (!/^[a-zäöüß]+$/.test(verb)) return clause;
  let subjectEnd: number;
  if (DE_PRONOUNS.test(tokens[0]!) || (/^[A-ZÄÖÜ]/.test(tokens[0]!) && !DE_DETERMINERS.test(tokens[0]!)))
    subjectEnd = 1;
  else if (DE_DETERMINERS.test(tokens[0]!)) {
    const noun = tokens.findIndex((w, i) => i > 0 && /^[A-ZÄÖÜ]/.test(w));
    if (noun < 0 || noun >= tokens.length - 1) return clause;
    subjectEnd = noun + 1;
  } else return clause;
  const middle = tokens.slice(subjectEnd, -1);
  if (middle.length === 0 && !DE_AUXILIARIES.test(verb)) return clause;
  const main = [...tokens.slice(0, subjectEnd), verb, ...middle].join(' ');
  return `${main.charAt(0).toUpperCase()}${main.slice(1)}`;
}

function rememberOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.endsWith('?')) return undefined;
  for (const re of REMEMBER) {
    const groups = re.exec(trimmed)?.groups;
    let note = groups?.note?.trim().replace(/^that\s+/i, '');
    if (!note) continue;
    // German notes come as a "dass" clause; say them as a sentence of their own.
    if (groups?.dass) note = deMainClause(note);
    return note.charAt(0).toUpperCase() + note.slice(1);
  }
  return undefined;
}

/** Reads one chat message against the user's cameras, properties and memories. */
export function parseQuestion(text: string, ctx: QuestionContext): ParsedQuestion {
  const note = rememberOf(text);
  if (note) {
    const until = guessExpiry(fold(note), ctx);
    return {
      intent: 'remember',
      rememberText: note,
      allProperties: false,
      ...(until ? { rememberUntil: until } : {}),
    };
  }

  const folded = fixTypos(fold(text), [
    ...ctx.cameras.map((c) => c.name),
    ...ctx.sites.map((s) => s.name),
    ...ctx.memories.map((m) => m.name),
  ]);
  const camItems = ctx.cameras.map((c) => ({ key: c.name, value: c }));
  const cams = matchNames(folded, [...camItems, ...placeAliases(camItems)]);
  const siteItems = ctx.sites.map((s) => ({ key: s.name, value: s.id }));
  const sites = matchNames(cams.rest, [...siteItems, ...placeAliases(siteItems)]);
  const mems = matchNames(
    sites.rest,
    ctx.memories.filter((m) => m.category !== 'other').map((m) => ({ key: m.name, value: m.uuid })),
  );
  const rest = mems.rest;

  const kinds = new Set<ObjectKind>();
  const labels = new Set<string>();
  for (const w of KIND_WORDS) {
    if (!w.re.test(rest)) continue;
    kinds.add(w.kind);
    if (w.label) labels.add(w.label);
  }
  // A label narrows its own kind only: "cars and people" is every person plus cars.
  const labelKinds = new Set(KIND_WORDS.filter((w) => w.label && labels.has(w.label)).map((w) => w.kind));
  const window = parseTimeWindow(rest, ctx);
  const allProperties = ALL_PROPERTIES.test(rest);

  const signals =
    cams.found.length +
    sites.found.length +
    mems.found.length +
    kinds.size +
    (window ? 1 : 0) +
    (allProperties ? 1 : 0);
  const bare = rest
    .replace(/[.!,:;-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (signals === 0) {
    if (GREETING.test(bare)) return { intent: 'smalltalk', smalltalk: 'greeting', allProperties: false };
    if (THANKS.test(bare)) return { intent: 'smalltalk', smalltalk: 'thanks', allProperties: false };
    if (HELP.test(bare)) return { intent: 'smalltalk', smalltalk: 'help', allProperties: false };
  }

  const { from, to, label, timing } = window ?? defaultWindow(ctx);
  const colours = kinds.has('vehicle')
    ? VEHICLE_COLOURS.filter(([re]) => re.test(rest)).map(([, c]) => c)
    : [];
  const siteIds = new Set<string>(sites.found);
  for (const cam of cams.found) if (cam.siteId) siteIds.add(cam.siteId);
  // Labels of a kind only narrow it when no broader word of that kind was used ("vehicles and cars").
  const broad = KIND_WORDS.filter((w) => !w.label && w.re.test(rest)).map((w) => w.kind);
  const keptLabels = [...labels].filter((l) => {
    const kind = KIND_WORDS.find((w) => w.label === l)!.kind;
    return labelKinds.has(kind) && !broad.includes(kind);
  });
  return {
    intent: 'search',
    from,
    to,
    window: label,
    ...(timing ? { timing } : {}),
    ...(cams.found.length ? { cameraNames: cams.found.map((c) => c.name) } : {}),
    ...(siteIds.size ? { siteIds: [...siteIds] } : {}),
    ...(kinds.size ? { kinds: [...kinds] } : {}),
    ...(keptLabels.length ? { labels: keptLabels } : {}),
    ...(colours.length ? { colours } : {}),
    ...(mems.found.length ? { memoryIds: mems.found } : {}),
    allProperties,
  };
}
