/**
 * A QR code drawn as one SVG path from uqr's module matrix, black on white in either theme
 * (phone cameras read dark modules on a light ground), with the quiet zone scanners need.
 */
import { encode } from 'uqr';

const QUIET_ZONE = 4;

export function QrCode({ text, label, size = 176 }: { text: string; label: string; size?: number }) {
  const { data } = encode(text, { ecc: 'M', border: QUIET_ZONE });
  const modules = data.length;
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
