// A webhook signing secret shown this once (a new endpoint's, or a rotated one).
import { ShownOnce } from './shown-once';

export const OnceSecret = ({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) => (
  <ShownOnce
    label="Signing secret"
    title={title}
    intro="The signing secret is shown this once. Your receiver verifies every delivery with it (Standard Webhooks)."
    value={secret}
    valueProps={{ class: 'secret' }}
    onDone={onDone}
  />
);
