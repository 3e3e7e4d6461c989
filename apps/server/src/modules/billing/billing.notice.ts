/** What the home sitter says when a user's free motion events run out (en, de), with the change-plan link. */
export function freeEventsUsedUp(language: string, changePlanUrl: string): { title: string; text: string } {
  if (language === 'de')
    return {
      title: 'Kostenlose Ereignisse aufgebraucht',
      text:
        'Deine kostenlosen Bewegungsereignisse sind aufgebraucht. Neue Kamera-Ereignisse warten 24 Stunden ' +
        `und werden verarbeitet, sobald du ein Abo abschließt: ${changePlanUrl}`,
    };
  return {
    title: 'Free events used up',
    text:
      'You have used all your free motion events. New camera events wait for 24 hours and are processed ' +
      `as soon as you subscribe: ${changePlanUrl}`,
  };
}
