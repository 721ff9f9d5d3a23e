/** The operations to fuzz: every one in the server's OpenAPI document, plus the undocumented ones. */

/** Callable with a key but left out of the document on purpose (interface §4.1). */
const UNDOCUMENTED = [
  {
    method: 'PATCH',
    template: '/v1/goals/reorder',
    pathParams: [],
    query: [],
    body: {
      contentType: 'application/json',
      schema: {
        type: 'object',
        properties: {
          site_id: { type: 'string', pattern: '^ttid_' },
          goal_ids: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'string', format: 'uuid' } },
        },
        required: ['site_id', 'goal_ids'],
        additionalProperties: false,
      },
    },
  },
];

export function operationsOf(document) {
  const operations = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const contentType = content['application/json'] ? 'application/json' : Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query'),
        body: contentType ? { contentType, schema: content[contentType].schema } : undefined,
      });
    }
  }
  return [...operations, ...UNDOCUMENTED];
}
