/**
 * Carries the request and response examples past @fastify/swagger intact. It walks every value
 * of a schema as if it were a schema, examples included, so an example with a `properties`,
 * `const` or `$ref` key of its own came out rewritten (an array turned into an object). The
 * operation transform packs them as text; the document pass unpacks them onto the media type.
 */
type Json = Record<string, unknown>;

const PACKED = 'x-touchtrail-examples';

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema with its top-level `examples` packed as JSON text, out of @fastify/swagger's reach. */
export function packExamples(schema: Json): Json {
  if (!Array.isArray(schema.examples)) return schema;
  const { examples, ...rest } = schema;
  return { ...rest, [PACKED]: JSON.stringify(examples) };
}

/** Puts packed examples on the media type: one as `example`, several as named `examples`. */
export function unpackExamples(content: unknown): void {
  for (const media of Object.values(isObject(content) ? content : {})) {
    const schema = isObject(media) ? media.schema : undefined;
    if (!isObject(media) || !isObject(schema) || typeof schema[PACKED] !== 'string') continue;
    const examples = JSON.parse(schema[PACKED]) as unknown[];
    delete schema[PACKED];
    if (examples.length === 1) media.example = examples[0];
    else media.examples = Object.fromEntries(examples.map((value, i) => [`example${i + 1}`, { value }]));
  }
}
