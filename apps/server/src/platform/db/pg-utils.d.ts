// node-postgres's own parameter preparation; @types/pg does not describe this file.
declare module 'pg/lib/utils.js' {
  const utils: {
    /** A JavaScript value as node-postgres sends it: text, a Buffer for bytes, or null. */
    prepareValue(value: unknown): string | Buffer | null;
  };
  export default utils;
}
