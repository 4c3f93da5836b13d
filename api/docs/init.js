// Swagger UI for both documents; served from our own origin (no CDN), started by this file so the
// page needs no inline script under its Content-Security-Policy.
(async () => {
  const config = await (await fetch('/docs/config.json')).json();
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
      if (config.demoApiKey) ui.preauthorizeApiKey('ApiKeyAuth', config.demoApiKey);
    },
  });
  window.ui = ui;
})();
