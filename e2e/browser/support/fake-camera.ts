import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';

/**
 * Writes a Y4M video (640×480, 4:2:0, a few identical frames) showing `text` as a QR code, black
 * on white with a quiet zone, for Chromium's fake camera
 * (`--use-file-for-fake-video-capture=<file>`, which loops it). Returns the file's path.
 */
export function qrVideo(text: string): string {
  const width = 640;
  const height = 480;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor(360 / (modules.size + 8));
  const side = modules.size * scale;
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++)
      if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(top + y) * width + left + x] = 16;
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  const path = join(tmpdir(), `fieldhouse-qr-${process.pid}-${Date.now()}.y4m`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: 5 }, () => frame)]));
  return path;
}
