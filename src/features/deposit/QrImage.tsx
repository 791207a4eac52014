import DOMPurify from 'dompurify';
import { useMemo } from 'react';

import { qrPngDataUrl } from './qrPng';

/** The server's QR SVG with scripts, handlers and foreign content removed (SVG profile only). */
export function sanitizeQrSvg(svg: string): string {
  return DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: false } });
}

/** The image source: a PNG of the payload (a long-press saves it to the gallery), else the sanitized SVG. */
export function qrImageSource(svg: string, payload?: string): string {
  if (payload) {
    try {
      return qrPngDataUrl(payload);
    } catch {
      // A payload the encoder refuses (too long for a QR): the server's own image still shows.
    }
  }
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(sanitizeQrSvg(svg))}`;
}

/**
 * The QR shown as an image with a real text alternative. With the payload (our server sends it) it is a PNG
 * drawn here, a raster a phone browser offers to save on long-press; a server that sends only the markup gets
 * its SVG shown, sanitized, in the <img> (an <img> never runs what an SVG might still carry).
 */
export function QrImage({ svg, payload, alt, imageUrl }: { svg: string; payload?: string; alt: string; imageUrl?: string }) {
  const src = useMemo(() => (imageUrl ? '' : qrImageSource(svg, payload)), [svg, payload, imageUrl]);
  // A gateway that sends only its own image (Opn): that image, as it is; nothing to draw or sanitize here.
  if (imageUrl) return <img className="qr__image" src={imageUrl} alt={alt} width={220} height={220} referrerPolicy="no-referrer" data-testid="qr-image" data-source="gateway" />;
  return <img className="qr__image" src={src} alt={alt} width={220} height={220} data-testid="qr-image" />;
}
