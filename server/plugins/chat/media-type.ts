/**
 * What a chat upload is, from its first bytes (never from the client's Content-Type), and whether its file name
 * agrees (docs/chat.md "Uploads"). Spec §5: an attachment needs one of the extensions mov, mp4, png, jpeg, jpg,
 * gif. Images must be PNG, JPEG or GIF by their signature and named accordingly; videos must be ISO media files
 * (an `ftyp` box: MP4 or QuickTime) named .mp4 or .mov.
 */
export type UploadKind = 'image' | 'video';

export interface SniffedType {
  kind: UploadKind;
  contentType: string;
  /** The extension the stored file gets (from the bytes, not from the client's name). */
  ext: 'png' | 'jpg' | 'gif' | 'mp4' | 'mov';
}

export const ALLOWED_EXTENSIONS = ['mov', 'mp4', 'png', 'jpeg', 'jpg', 'gif'] as const;

/** Bytes the sniffing needs at most. */
export const SNIFF_BYTES = 16;

/** MP4 major brands (ISO base media, MPEG-4, H.264, Apple M4V, DASH, 3GPP as phones record it). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'M4VP', 'dash', 'MSNV', 'mmp4', '3gp4', '3gp5', '3gp6']);

export function sniffMedia(head: Buffer): SniffedType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { kind: 'image', contentType: 'image/png', ext: 'png' };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { kind: 'image', contentType: 'image/jpeg', ext: 'jpg' };
  const six = head.subarray(0, 6).toString('latin1');
  if (six === 'GIF87a' || six === 'GIF89a') return { kind: 'image', contentType: 'image/gif', ext: 'gif' };
  // ISO base media: a box size, 'ftyp', the major brand.
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = head.subarray(8, 12).toString('latin1');
    if (brand === 'qt  ') return { kind: 'video', contentType: 'video/quicktime', ext: 'mov' };
    if (MP4_BRANDS.has(brand)) return { kind: 'video', contentType: 'video/mp4', ext: 'mp4' };
  }
  return null;
}

/** The lower-case extension of a file name, if it is one of the allowed ones. */
export function allowedExtensionOf(fileName: string | undefined): (typeof ALLOWED_EXTENSIONS)[number] | null {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '');
  const ext = m?.[1].toLowerCase();
  return ext && (ALLOWED_EXTENSIONS as readonly string[]).includes(ext) ? (ext as (typeof ALLOWED_EXTENSIONS)[number]) : null;
}

/**
 * The name agrees with the bytes: .png for PNG, .jpg/.jpeg for JPEG, .gif for GIF; .mp4 or .mov for either video
 * container (phones name QuickTime-compatible MP4 files .mov and the other way round; both play the same).
 */
export function extensionAgrees(ext: string, type: SniffedType): boolean {
  switch (type.ext) {
    case 'png':
      return ext === 'png';
    case 'jpg':
      return ext === 'jpg' || ext === 'jpeg';
    case 'gif':
      return ext === 'gif';
    default:
      return ext === 'mp4' || ext === 'mov';
  }
}
