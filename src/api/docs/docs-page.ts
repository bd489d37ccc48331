/** The /docs page: Swagger UI rendering /v1/openapi.json, every file from this server. */
export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Dubbing API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <noscript>This page renders the OpenAPI document at <a href="/v1/openapi.json">/v1/openapi.json</a>; enable JavaScript, or read the document itself.</noscript>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/docs-init.js"></script>
</body>
</html>
`;

/**
 * Only this server may be reached from the page: the browser itself refuses anything else, so
 * the page cannot silently depend on a CDN or a font host. Swagger UI sets inline styles and
 * inlines its icons as data: URLs.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
