import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** The QR code of `code_unique` as a PNG image (about 300 px wide). */
export function qrPng(code: string): Promise<Buffer> {
  return QRCode.toBuffer(code, { ...OPTIONS, type: 'png', width: 300 });
}

/** The QR code of `code_unique` as an SVG document (scalable, for print). */
export function qrSvg(code: string): Promise<string> {
  return QRCode.toString(code, { ...OPTIONS, type: 'svg' });
}
