/** The outgoing-mail port. One implementation per file beside this one. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links the mail carries; the outbox logs them so a local user can follow them without a mail client. */
  links?: string[];
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}
