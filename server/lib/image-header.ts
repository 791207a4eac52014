/**
 * An image's size from its header, before any decoding (ARCHITECTURE.md "Uploads"; issue 39 row 2). A decoder trusts
 * the header to size its buffers and, for an interlaced PNG, pngjs does not even bound the inflated data by it
 * (TOOLCHAIN.md): so the header is read first, by content, and a picture too large, interlaced or malformed is refused
 * before a decoder or a staff browser ever sees it. PNG (IHDR), JPEG (the first SOF segment, after any APPn
 * segments) and GIF (the logical screen) are understood; nothing else is an image here.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** PNG Adam7 or progressive JPEG: decoded in passes (an interlaced PNG's inflation is unbounded in pngjs). */
  interlaced: boolean;
}

/** Why a header is refused. `malformed`: not a well-formed header of its format (or none in the bytes given). */
export type HeaderProblem = 'malformed' | 'interlaced' | 'too-large';

export interface ImageSizeLimits {
  /** Most pixels (width x height). */
  maxPixels: number;
  /** Longest side in pixels. */
  maxSide: number;
  /** Refuse interlaced (Adam7) PNGs: pngjs inflates them without a bound. Progressive JPEGs stay: jpeg-js bounds them. */
  refuseInterlacedPng?: boolean;
}

/**
 * How far into a file a header may be: a JPEG's SOF comes after its APPn segments (EXIF, ICC, XMP), each at most
 * 64 KB; a photo with several of them still has its SOF well within this. A file without one by here is refused.
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Valid PNG (colour type: bit depths), from the PNG specification's IHDR table. */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/**
 * The header of the image that `head` starts with: an ImageHeader, 'more' when the bytes end before the header
 * does (call again with more of the file), or null when it is not a well-formed PNG, JPEG or GIF header.
 */
export function readImageHeader(head: Buffer): ImageHeader | 'more' | null {
  if (head.length < 3) return 'more';
  if (head[0] === 0x89) return pngHeader(head);
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpegHeader(head);
  if (head[0] === 0x47) return gifHeader(head);
  return null;
}

function pngHeader(b: Buffer): ImageHeader | 'more' | null {
  // Signature, then IHDR first: length 13, "IHDR", width, height, depth, colour type, compression, filter, interlace.
  if (b.length < 33) return PNG_SIGNATURE.subarray(0, Math.min(8, b.length)).equals(b.subarray(0, Math.min(8, b.length))) ? 'more' : null;
  if (!b.subarray(0, 8).equals(PNG_SIGNATURE) || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const [depth, colour, compression, filter, interlace] = [b[24], b[25], b[26], b[27], b[28]];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return null;
  if (!PNG_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return null;
  return { format: 'png', width, height, interlaced: interlace === 1 };
}

/** Start-of-frame markers (baseline, extended, progressive, lossless; Huffman and arithmetic), not DHT/JPG/DAC. */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
const PROGRESSIVE = new Set([0xc2, 0xc6, 0xca, 0xce]);

function jpegHeader(b: Buffer): ImageHeader | 'more' | null {
  let i = 2;
  for (;;) {
    if (i >= MAX_HEADER_BYTES) return null;
    if (i + 4 > b.length) return 'more';
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte before a marker
      continue;
    }
    // Standalone markers carry no length; anything that ends the header first (scan, end of image) is no image.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda || marker === 0x00) return null;
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (isSof(marker)) {
      if (length < 8) return null;
      if (i + 9 > b.length) return 'more';
      const height = b.readUInt16BE(i + 5);
      const width = b.readUInt16BE(i + 7);
      // A height of 0 is announced later by a DNL segment: not something a slip or a chat photo needs.
      if (width === 0 || height === 0) return null;
      return { format: 'jpeg', width, height, interlaced: PROGRESSIVE.has(marker) };
    }
    i += 2 + length;
  }
}

function gifHeader(b: Buffer): ImageHeader | 'more' | null {
  if (b.length < 10) return 'GIF8'.startsWith(b.toString('latin1', 0, Math.min(4, b.length))) ? 'more' : null;
  const sig = b.toString('latin1', 0, 6);
  if (sig !== 'GIF87a' && sig !== 'GIF89a') return null;
  // The logical screen: browsers size every frame's canvas by it.
  const width = b.readUInt16LE(6);
  const height = b.readUInt16LE(8);
  if (width === 0 || height === 0) return null;
  return { format: 'gif', width, height, interlaced: false };
}

/** What is wrong with a header under the limits, or null when it may be decoded or shown. */
export function headerProblem(h: ImageHeader, limits: ImageSizeLimits): HeaderProblem | null {
  if (h.width > limits.maxSide || h.height > limits.maxSide || h.width * h.height > limits.maxPixels) return 'too-large';
  if (limits.refuseInterlacedPng && h.format === 'png' && h.interlaced) return 'interlaced';
  return null;
}

/** readImageHeader then headerProblem on a whole file (or its first MAX_HEADER_BYTES). */
export function checkImage(bytes: Buffer, limits: ImageSizeLimits): { header: ImageHeader; problem: null } | { header: ImageHeader | null; problem: HeaderProblem } {
  const h = readImageHeader(bytes.subarray(0, MAX_HEADER_BYTES));
  if (h === null || h === 'more') return { header: null, problem: 'malformed' };
  const problem = headerProblem(h, limits);
  return problem ? { header: h, problem } : { header: h, problem: null };
}
