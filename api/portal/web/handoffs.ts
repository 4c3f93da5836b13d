// "Try it in the docs": each key made in this browser keeps its docs handoff here until it expires,
// so its row can offer the button; the button hands it to the API and opens /docs.
import { api, attempt, must, type DocsHandoff } from './api';

const storageKey = (keyId: string) => `portal-handoff:${keyId}`;

export const handoffs = {
  get(keyId: string): DocsHandoff | undefined {
    try {
      const h = JSON.parse(localStorage.getItem(storageKey(keyId)) ?? 'null') as DocsHandoff | null;
      return h && Date.parse(h.expiresAt) > Date.now() ? h : undefined;
    } catch {
      return undefined;
    }
  },
  put(keyId: string, h: DocsHandoff) {
    localStorage.setItem(storageKey(keyId), JSON.stringify(h));
  },
};

export const tryInDocs = (handoff: DocsHandoff, onError: (message: string) => void) =>
  attempt(onError, async () => {
    await must(api.POST('/portal/api/docs-handoff', { body: { handoff: handoff.token } }));
    window.location.assign('/docs');
  });
