/** heic-decode ships no types: it decodes the primary image of a HEIC file to RGBA with libheif (WASM). */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  /** An image of the file, its size read from the container; `decode()` decodes its pixels. */
  interface HeifImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  function decode(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<DecodedImage>;
  namespace decode {
    /** Every image of the file, none decoded yet; `dispose()` frees libheif's memory once done. */
    function all(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeifImage[] & { dispose(): void }>;
  }
  export default decode;
}
