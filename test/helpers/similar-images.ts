// The similar-images fixture set, made with sharp when the test loads: a handful of varied
// "photos" (smooth noise, gradients with shapes, line art on skin tones), the transforms a
// re-upload goes through, and unrelated images from other seeds.
import sharp from 'sharp';
import { mulberry32 } from '../../scripts/seed/directory';

const WIDTH = 1200;
const HEIGHT = 900;

/** The seed tooling's deterministic generator: every run makes the same images. */
export const random = mulberry32;

/** Photo-like noise: coarse random blobs, enlarged smoothly, with fine grain on top. */
async function smoothNoise(seed: number): Promise<Buffer> {
  const rnd = random(seed);
  const cw = 16;
  const ch = 12;
  const coarse = Buffer.alloc(cw * ch * 3);
  for (let i = 0; i < coarse.length; i++) coarse[i] = Math.floor(rnd() * 256);
  const blobs = await sharp(coarse, { raw: { width: cw, height: ch, channels: 3 } }).resize(WIDTH, HEIGHT, { kernel: 'cubic' }).png().toBuffer();
  const grain = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .png()
    .toBuffer();
  return sharp(blobs).composite([{ input: grain, blend: 'soft-light' }]).png().toBuffer();
}

const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${body}</svg>`);

/** A gradient with a few shapes on it. */
function gradientScene(seed: number): Promise<Buffer> {
  const rnd = random(seed);
  const hue = () => Math.floor(rnd() * 360);
  const shapes = Array.from({ length: 6 }, () => {
    const [x, y, r] = [rnd() * WIDTH, rnd() * HEIGHT, 60 + rnd() * 200];
    return rnd() < 0.5
      ? `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${hue()},70%,${30 + rnd() * 40}%)"/>`
      : `<rect x="${x - r}" y="${y - r / 2}" width="${r * 2}" height="${r}" transform="rotate(${rnd() * 90} ${x} ${y})" fill="hsl(${hue()},60%,${30 + rnd() * 40}%)"/>`;
  }).join('');
  const angle = rnd() * 360;
  return sharp(
    svg(
      `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="hsl(${hue()},80%,20%)"/><stop offset="1" stop-color="hsl(${hue()},80%,80%)"/></linearGradient></defs>` +
        `<rect width="100%" height="100%" fill="url(#g)"/>${shapes}`,
    ),
  )
    .png()
    .toBuffer();
}

const SKIN = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#ffdbac'];

/** Line art (curves, a rose-like spiral, dots) in dark ink on a skin tone. */
function lineArt(seed: number): Promise<Buffer> {
  const rnd = random(seed);
  const curves = Array.from({ length: 14 }, () => {
    const p = () => `${(rnd() * WIDTH).toFixed(0)} ${(rnd() * HEIGHT).toFixed(0)}`;
    return `<path d="M ${p()} C ${p()}, ${p()}, ${p()}" stroke="#1a1a1a" stroke-width="${3 + rnd() * 10}" fill="none"/>`;
  }).join('');
  const [cx, cy] = [WIDTH * (0.3 + rnd() * 0.4), HEIGHT * (0.3 + rnd() * 0.4)];
  const spiral = Array.from({ length: 120 }, (_, i) => {
    const a = i * 0.25;
    const r = 4 + i * 2.2;
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
  const dots = Array.from({ length: 40 }, () => `<circle cx="${rnd() * WIDTH}" cy="${rnd() * HEIGHT}" r="${2 + rnd() * 8}" fill="#222"/>`).join('');
  const skin = SKIN[Math.floor(rnd() * SKIN.length)]!;
  return sharp(svg(`<rect width="100%" height="100%" fill="${skin}"/>${curves}<polyline points="${spiral}" stroke="#111" stroke-width="6" fill="none"/>${dots}`))
    .png()
    .toBuffer();
}

export type Kind = 'noise' | 'gradient' | 'line-art';
const MAKERS: Record<Kind, (seed: number) => Promise<Buffer>> = { noise: smoothNoise, gradient: gradientScene, 'line-art': lineArt };

/** One original "photo" as a JPEG (quality 90). */
export async function original(kind: Kind, seed: number): Promise<Buffer> {
  return sharp(await MAKERS[kind](seed)).jpeg({ quality: 90 }).toBuffer();
}

/** The handful of originals: two of each kind. */
export const ORIGINALS: { kind: Kind; seed: number }[] = [
  { kind: 'noise', seed: 1 },
  { kind: 'noise', seed: 2 },
  { kind: 'gradient', seed: 3 },
  { kind: 'gradient', seed: 4 },
  { kind: 'line-art', seed: 5 },
  { kind: 'line-art', seed: 6 },
];

/** Unrelated images: seeds no original uses, the three kinds in turn. */
export function unrelated(i: number): Promise<Buffer> {
  const kinds: Kind[] = ['noise', 'gradient', 'line-art'];
  return original(kinds[i % 3]!, 1000 + i);
}

export type Transform = 'resize50' | 'jpeg60' | 'webp' | 'watermark' | 'greyscale' | 'crop5' | 'crop10' | 'mirror' | 'rotate3';
export const TRANSFORMS: Transform[] = ['resize50', 'jpeg60', 'webp', 'watermark', 'greyscale', 'crop5', 'crop10', 'mirror', 'rotate3'];

/** Centre crop cutting `share` of width and height away (half on each side). */
async function centreCrop(bytes: Buffer, share: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  const w = Math.round(width * (1 - share));
  const h = Math.round(height * (1 - share));
  return sharp(bytes)
    .extract({ left: Math.floor((width - w) / 2), top: Math.floor((height - h) / 2), width: w, height: h })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const WATERMARK = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
    `<text x="${WIDTH - 40}" y="${HEIGHT - 50}" text-anchor="end" font-family="sans-serif" font-size="72" font-weight="bold" fill="white" fill-opacity="0.7" stroke="black" stroke-opacity="0.4" stroke-width="2">@ink.by.someone</text></svg>`,
);

/** The transformed image and its media type. */
export async function transform(bytes: Buffer, t: Transform): Promise<{ bytes: Buffer; mimeType: 'image/jpeg' | 'image/webp' }> {
  const jpeg = (s: sharp.Sharp) => s.jpeg({ quality: 90 }).toBuffer();
  const img = () => sharp(bytes);
  switch (t) {
    case 'resize50':
      return { bytes: await jpeg(img().resize(WIDTH / 2)), mimeType: 'image/jpeg' };
    case 'jpeg60':
      return { bytes: await img().jpeg({ quality: 60 }).toBuffer(), mimeType: 'image/jpeg' };
    case 'webp':
      return { bytes: await img().webp({ quality: 75 }).toBuffer(), mimeType: 'image/webp' };
    case 'watermark':
      return { bytes: await jpeg(img().composite([{ input: WATERMARK }])), mimeType: 'image/jpeg' };
    case 'greyscale':
      return { bytes: await jpeg(img().greyscale()), mimeType: 'image/jpeg' };
    case 'crop5':
      return { bytes: await centreCrop(bytes, 0.05), mimeType: 'image/jpeg' };
    case 'crop10':
      return { bytes: await centreCrop(bytes, 0.1), mimeType: 'image/jpeg' };
    case 'mirror':
      return { bytes: await jpeg(img().flop()), mimeType: 'image/jpeg' };
    case 'rotate3':
      return { bytes: await jpeg(img().rotate(3, { background: '#ffffff' })), mimeType: 'image/jpeg' };
  }
}
