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
