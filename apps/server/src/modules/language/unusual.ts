/**
 * Why an event is unusual, in one sentence: what the camera's routine of the last weeks did not contain
 * ("Nobody has been at the Cabin Porch at night in the last 30 days."). The verdict comes from the routine
 * module; the words are rendered when read, so a changed language shows old verdicts in the new one.
 */
import type { DayPart, RoutineVerdict } from '../../platform/db/schema.js';
import type { Language } from './lexicon.js';
import { deWhere, enWhere, placeOf, siteWhere } from './places.js';

export type UnusualFacts = NonNullable<RoutineVerdict['unusual']>;

const EN_PART: Record<DayPart, string> = {
  night: 'night',
  morning: 'morning',
  afternoon: 'afternoon',
  evening: 'evening',
};
const EN_WHEN: Record<DayPart, string> = {
  night: 'at night',
  morning: 'in the morning',
  afternoon: 'in the afternoon',
  evening: 'in the evening',
};
const DE_WHEN: Record<DayPart, string> = {
  night: 'nachts',
  morning: 'morgens',
  afternoon: 'nachmittags',
  evening: 'abends',
};

function enReason(u: UnusualFacts, cameraName: string): string {
  const where = enWhere(placeOf(cameraName, 'en'));
  const when =
    u.rule === 'weekend' || u.rule === 'weekday' ? `on a ${u.rule} ${EN_PART[u.part]}` : EN_WHEN[u.part];
  const last = `in the last ${u.days} days`;
  if (u.rule === 'stranger') return `Only people you know have been ${where} ${when} ${last}.`;
  if (u.rule === 'away')
    return `Someone you don't know was ${where} while your people were seen at ${u.elsewhere}.`;
  const nobody = { person: 'Nobody', vehicle: 'No vehicle', animal: 'No animal' }[u.kind];
  return `${nobody} has been ${where} ${when} ${last}.`;
}

function deReason(u: UnusualFacts, cameraName: string): string {
  const where = deWhere(placeOf(cameraName, 'de'));
  const when =
    u.rule === 'weekend'
      ? `am Wochenende ${DE_WHEN[u.part]}`
      : u.rule === 'weekday'
        ? `werktags ${DE_WHEN[u.part]}`
        : DE_WHEN[u.part];
  const last = `In den letzten ${u.days} Tagen`;
  if (u.rule === 'stranger') return `${last} waren ${when} nur Leute ${where}, die du kennst.`;
  if (u.rule === 'away')
    return `Jemand Unbekanntes war ${where}, während deine Leute ${siteWhere(u.elsewhere ?? '', 'de')} gesehen wurden.`;
  const nobody = { person: 'niemand', vehicle: 'kein Fahrzeug', animal: 'kein Tier' }[u.kind];
  return `${last} war ${when} ${nobody} ${where}.`;
}

/** The one sentence that says why the event is unusual. */
export function unusualReason(u: UnusualFacts, cameraName: string, language: Language): string {
  return language === 'de' ? deReason(u, cameraName) : enReason(u, cameraName);
}

/** The word an unusual event is flagged with ("Unusual: …" in an alert, the highlights, the chat). */
export const unusualLabel = (language: Language) => (language === 'de' ? 'Ungewöhnlich' : 'Unusual');

/** "Unusual: nobody has been at the Cabin Porch at night in the last 30 days." */
export function unusualLine(u: UnusualFacts, cameraName: string, language: Language): string {
  const reason = unusualReason(u, cameraName, language);
  // English continues the sentence after the colon; German keeps its capital (it starts a full sentence).
  const said = language === 'en' ? reason[0]!.toLowerCase() + reason.slice(1) : reason;
  return `${unusualLabel(language)}: ${said}`;
}
