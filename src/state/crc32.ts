/**
 * CRC-32 (IEEE 802.3, the polynomial of zip, gzip and PNG), table-driven. A share link carries the CRC-32 of its
 * document's UTF-8 bytes, so a link that was cut off, retyped or bit-flipped is refused rather than opened as junk
 * (raw DEFLATE has no checksum of its own). fflate computes one inside gzip but does not export it.
 */

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `bytes`, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The CRC-32 as 8 lowercase hex digits. */
export function crc32Hex(bytes: Uint8Array): string {
  return crc32(bytes).toString(16).padStart(8, '0');
}
