/** What the home sitter says once when Google refuses the Nest link (en, de), with where to reconnect. */
export function nestLinkLost(language: string, setupUrl: string): { title: string; text: string } {
  if (language === 'de')
    return {
      title: 'Google Nest getrennt',
      text:
        'Google hat die Verbindung zu deinen Nest-Kameras abgelehnt (widerrufen oder abgelaufen), daher ' +
        'kommen von ihnen keine Ereignisse mehr. Verbinde Google Nest unter Einstellungen → Kamera-Einrichtung ' +
        `neu: ${setupUrl}`,
    };
  return {
    title: 'Google Nest disconnected',
    text:
      'Google refused the link to your Nest cameras (revoked or expired), so no events come from them now. ' +
      `Reconnect Google Nest in Settings → camera setup: ${setupUrl}`,
  };
}

/**
 * Why a Nest camera's live view cannot start now (`GET /live`'s `notice`), in the owner's language: Google's
 * rate limit (429), or Google refusing the stream otherwise; the player asks again after `seconds`.
 */
export function nestLiveNotice(language: string, rateLimited: boolean, seconds: number): string {
  if (language === 'de')
    return rateLimited
      ? `Google begrenzt gerade die Live-Bilder dieser Kamera; neuer Versuch in ${seconds} s.`
      : `Google hat das Live-Bild dieser Kamera gerade nicht gestartet; neuer Versuch in ${seconds} s.`;
  return rateLimited
    ? `Google is limiting live views of this camera right now; trying again in ${seconds} s.`
    : `Google did not start the live view of this camera just now; trying again in ${seconds} s.`;
}
