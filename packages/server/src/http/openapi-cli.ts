/** `npm run openapi`: rewrites the committed openapi.json from the route schemas. */
import { writeFile } from 'node:fs/promises';
import { generateOpenApiDocument, OPENAPI_FILE } from './openapi-document.js';

await writeFile(OPENAPI_FILE, await generateOpenApiDocument());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
