import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** The server's QR SVG with scripts, handlers and foreign content removed (SVG profile only). */
export function sanitizeQrSvg(svg: string): string {
  return DOMPurify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: false } });
}

/**
 * The QR markup from the server, sanitized and then shown as an image: an <img> never runs what an SVG
 * might still carry, and it gets a real text alternative.
 */
export function QrImage({ svg, alt }: { svg: string; alt: string }) {
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(sanitizeQrSvg(svg))}`, [svg]);
  return <img className="qr__image" src={src} alt={alt} width={220} height={220} data-testid="qr-image" />;
}
