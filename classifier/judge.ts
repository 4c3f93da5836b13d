// What the reference classifier can judge of one image, offline on the CPU: nudity, from nsfwjs
// (MobileNetV2, weights shipped in the package) on TensorFlow.js's WASM backend; a drawing rather
// than skin (a hint for `not_a_tattoo`), from the same model's Drawing class; and low quality,
// from the verified dimensions. It cannot judge style, placement, subject, faces or watermarks:
// it leaves those empty rather than guess (docs/agents.md).
import sharp from 'sharp';
import type { ClassificationBody } from '../lib/agents/answers';

export const MODEL = { name: 'nsfwjs MobileNetV2 + dimensions', version: 'nsfwjs-4.4.0/judge-1' } as const;

type Nsfw = { classify(img: unknown, topk?: number): Promise<{ className: string; probability: number }[]> };
type Tf = { tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void }; setBackend(b: string): Promise<boolean>; ready(): Promise<void>; getBackend(): string };

export interface Judge {
  judge(previewWebp: Buffer, facts: { width: number | null; height: number | null }): Promise<ClassificationBody>;
  backend: string;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The short edge, in pixels, below which an image is too small to publish well. */
const SMALL_EDGE = 600;

export function lowQualityOf(facts: { width: number | null; height: number | null }): number {
  if (!facts.width || !facts.height) return 0.5;
  const edge = Math.min(facts.width, facts.height);
  return edge < SMALL_EDGE / 2 ? 0.95 : edge < SMALL_EDGE ? 0.7 : 0.05;
}

export async function loadJudge(): Promise<Judge> {
  // TensorFlow.js prints a banner about tfjs-node in Node: quiet while it loads.
  const warn = console.warn;
  console.warn = () => {};
  try {
    const tf = (await import('@tensorflow/tfjs')) as unknown as Tf;
    await import('@tensorflow/tfjs-backend-wasm');
    await tf.setBackend('wasm');
    await tf.ready();
    const nsfwjs = (await import('nsfwjs')) as unknown as { load(name: string): Promise<Nsfw> };
    const log = console.info;
    console.info = () => {};
    const model = await nsfwjs.load('MobileNetV2').finally(() => (console.info = log));
    return {
      backend: tf.getBackend(),
      async judge(preview, facts) {
        const { data, info } = await sharp(preview).resize(224, 224, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        const img = tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
        let p: Record<string, number>;
        try {
          p = Object.fromEntries((await model.classify(img, 5)).map((c) => [c.className, c.probability]));
        } finally {
          img.dispose();
        }
        const nudity = round(Math.min(1, (p.Porn ?? 0) + (p.Hentai ?? 0) + 0.5 * (p.Sexy ?? 0)));
        const drawing = round(p.Drawing ?? 0);
        const lowQuality = lowQualityOf(facts);
        const top = Object.entries(p).sort((a, b) => b[1] - a[1])[0]!;
        return {
          styles: [],
          placement: null,
          subjects: [],
          contentFlags: [
            { id: 'nudity', confidence: nudity },
            { id: 'not_a_tattoo', confidence: round(drawing * 0.6) },
            { id: 'low_quality', confidence: lowQuality },
          ],
          model: { ...MODEL },
          rationale: `nsfwjs: ${top[0]} ${round(top[1])}; nudity = Porn + Hentai + Sexy/2; a Drawing score hints at flash art, not skin; short edge ${facts.width && facts.height ? Math.min(facts.width, facts.height) : 'unknown'} px. Style, placement, subject, faces and watermarks are not judged.`,
        };
      },
    };
  } finally {
    console.warn = warn;
  }
}
