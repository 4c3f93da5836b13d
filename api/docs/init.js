// Swagger UI for both documents; served from our own origin (no CDN), started by this file so the
// page needs no inline script under its Content-Security-Policy.
// X-API-Key is prefilled from the partner portal's handoff ("Try it in the docs") while the
// browser's portal session, the person, their permission, the handoff and the key all hold (the
// server checks them at /portal/api/docs-prefill); else, on the embedded stack only, with its demo
// key; else nothing, and the note says to paste a key.
(async () => {
  const config = await (await fetch('/docs/config.json')).json();
  const prefill = await fetch('/portal/api/docs-prefill', { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  const portalKey = prefill && prefill.data ? prefill.data : null;
  const note = document.getElementById('key-note');
  if (note) {
    note.textContent = portalKey
      ? `X-API-Key is prefilled with your key ${portalKey.prefix} from the partner portal (until ${new Date(portalKey.handoffExpiresAt).toLocaleString()}).`
      : config.demoApiKey
        ? 'X-API-Key is prefilled with the embedded stack\u2019s demo partner key.'
        : `Paste your API key with Authorize (keys are made in the partner portal${config.portalUrl ? `: ${config.portalUrl}` : ''}).`;
    note.dataset.prefill = portalKey ? 'portal' : config.demoApiKey ? 'demo' : 'none';
  }
  const ui = window.SwaggerUIBundle({
    urls: config.urls,
    'urls.primaryName': config.urls[0].name,
    dom_id: '#swagger-ui',
    presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    tryItOutEnabled: true,
    validatorUrl: null,
    persistAuthorization: false,
    onComplete: () => {
      const key = portalKey ? portalKey.apiKey : config.demoApiKey;
      if (key) ui.preauthorizeApiKey('ApiKeyAuth', key);
    },
  });
  window.ui = ui;
})();
