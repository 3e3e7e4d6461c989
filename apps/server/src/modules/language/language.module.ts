/**
 * The home sitter's sentences (en/de), shared by every module that speaks: an activity's sentence, the day's
 * summary, clock times and dates, object nouns and names. Pure functions over detected facts, no state and no
 * I/O. The understanding of the user's chat messages is the conversation module's.
 */
export {
  type ActivityFacts,
  describeActivity,
  type DetectedObject,
  type RecognisedName,
  subjectPhrase,
} from './activity-sentence.js';
export {
  dayName,
  formatClock,
  formatDayDate,
  formatHour,
  instantOnDay,
  localDate,
  localDayNumber,
  localHour,
  weekdayName,
  weekdayOfDay,
  zoneOrUtc,
} from './clock.js';
export { fold, namePattern, nameVariants } from './fold.js';
export {
  capitalise,
  enArticle,
  joinList,
  KIND_NOUNS,
  kindOfLabel,
  type Language,
  languageOf,
  normaliseLabel,
  nounFor,
  numberFromWord,
  numberWord,
  OBJECT_KINDS,
  type ObjectKind,
} from './lexicon.js';
export { deWhere, enWhere, placeOf, siteWhere } from './places.js';
export { describe, detectionsOf, factsOf, localisedLanguage } from './stored-descriptions.js';
export { type AlertPart, alertText, alertUnusualLine } from './alert-text.js';
export { unusualLabel, unusualLine, unusualReason, type UnusualFacts } from './unusual.js';
export { composeSummary, type SummaryCounts, type SummaryFacts } from './summary.js';
