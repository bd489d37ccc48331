// `node --import tsx test/helpers/openapi-validator.cli.ts < document.json`: prints the verdict of
// @seriousme/openapi-schema-validator (the OpenAPI 3.1 schema, with its JSON Schema dialect) as JSON.
// A process of its own because the validator is an ES module, which jest's CommonJS runtime
// cannot load.

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const result = await new Validator().validate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors ?? [] }));
}

void main();
