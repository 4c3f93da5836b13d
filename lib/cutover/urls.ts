// Image URLs of imported items: only web URLs are kept (https; http too where the caller allows it,
// which the tools do outside production). A `javascript:`, `data:`, `vbscript:` or any other scheme
// is refused, as is text that is no URL.

export type UrlRefusal = 'image_url_invalid' | 'image_url_scheme_not_allowed';

/** Whether a tool allows plain http: everywhere but production. */
export const httpAllowedIn = (cfg: { NODE_ENV: string }) => cfg.NODE_ENV !== 'production';

/** The URL (serialized by the URL parser), or why it is refused. */
export function imageUrlOf(text: string, allowHttp: boolean): { url: string } | { refused: UrlRefusal } {
  const t = text.trim();
  // control characters and spaces inside a URL hide schemes from some parsers (`java\tscript:`)
  if (/[\u0000-\u0020\u007f]/.test(t)) return { refused: 'image_url_invalid' };
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return { refused: 'image_url_invalid' };
  }
  // the URL as the WHATWG parser writes it: quotes and angle brackets percent-encoded
  if (u.protocol === 'https:' || (allowHttp && u.protocol === 'http:')) return u.hostname ? { url: u.href } : { refused: 'image_url_invalid' };
  return { refused: 'image_url_scheme_not_allowed' };
}
